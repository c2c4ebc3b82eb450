// --scheme through the CLI: recorded in the sidecar, signatures equal to the
// BigInt reference, and a file of one scheme refused for a run of the other.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readSignatureFile } from '../../src/formats/shards/signatureFile.js';
import { makeParams, paramDifferences, SCHEMES, schemeOf } from '../../src/signatures/params.js';
import { shingleDocument } from '../../src/shingles/shingles.js';
import { ophSignatureRef, pairsToBigInts } from '../support/reference.js';
import { runCli, tempDir, runCliHere } from '../support/cli.js';

const lines = gunzipSync(readFileSync('data/sample.jsonl.gz'))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .slice(0, 30);

describe('the signing scheme as a parameter', () => {
  it('is classic by default, recorded by name, and differences say which scheme is which', () => {
    expect(makeParams().scheme).toBe('minhash-mersenne61-fnv1a64-splitmix64/v1');
    const oph = makeParams({ scheme: 'oph' });
    expect(oph.scheme).toBe(SCHEMES.oph);
    expect(schemeOf(oph)).toBe('oph');
    expect(paramDifferences(oph, makeParams())).toEqual([
      'scheme: oph (one-permutation hashing with optimal densification) vs classic (classic MinHash, k hash functions)',
    ]);
    expect(() => schemeOf({ scheme: 'minhash/v0' })).toThrow(/unknown signature scheme "minhash\/v0"/);
    expect(() => makeParams({ scheme: 'bogus' as 'oph' })).toThrow(
      /scheme must be one of classic, oph, simhash, datasketch-affine32/,
    );
  });

  it('sign --scheme oph writes OPH signatures (the BigInt reference) and records the scheme', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'in.jsonl'), lines.join('\n') + '\n');
    const out = join(dir, 'sigs.npy');
    const result = await runCli([
      'sign',
      join(dir, 'in.jsonl'),
      '-o',
      out,
      '--scheme',
      'oph',
      '--backend',
      'cpu',
      '-k',
      '32',
      '-q',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const sidecar = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as { params: { scheme: string } };
    expect(sidecar.params.scheme).toBe(SCHEMES.oph);
    const file = await readSignatureFile(out, makeParams({ k: 32, scheme: 'oph' }));
    lines.forEach((line, d) => {
      const set = pairsToBigInts(shingleDocument((JSON.parse(line) as { text: string }).text));
      expect(pairsToBigInts(file.words.subarray(64 * d, 64 * (d + 1)))).toEqual(ophSignatureRef(set, 32, 42n));
    });

    // dedup takes the scheme from the file; asking for the other one is refused, naming it.
    const ok = await runCli([
      'dedup',
      join(dir, 'in.jsonl'),
      '--signatures',
      out,
      '--dry-run',
      '--report',
      join(dir, 'r.json'),
      '-q',
    ]);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const mixed = await runCliHere([
      'dedup',
      join(dir, 'in.jsonl'),
      '--signatures',
      out,
      '--scheme',
      'classic',
      '--dry-run',
      '--report',
      join(dir, 'r.json'),
      '-q',
    ]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toMatch(
      /different parameters.*scheme: oph \(one-permutation hashing with optimal densification\) vs classic/,
    );
  });

  it('sign --resume refuses to continue a run of the other scheme', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'in.jsonl'), lines.join('\n') + '\n');
    const out = join(dir, 'sigs.npy');
    const sidecarHead =
      JSON.stringify({ format: 'gpudedup-signatures', version: 1, params: makeParams({ k: 8, scheme: 'oph' }) }).slice(
        0,
        -1,
      ) + ',"ids":[\n';
    writeFileSync(`${out}.json.partial`, sidecarHead);
    writeFileSync(`${out}.partial`, Buffer.alloc(128));
    const result = await runCli([
      'sign',
      join(dir, 'in.jsonl'),
      '-o',
      out,
      '--resume',
      '--backend',
      'cpu',
      '-k',
      '8',
      '-q',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /cannot resume.*scheme: oph \(one-permutation hashing with optimal densification\) vs classic \(classic MinHash/,
    );
  });
});
