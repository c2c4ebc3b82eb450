// --weights counts through the parameters and the built CLI: recorded in the sidecar, the shard metadata and the
// index manifest; files of the other weighting refused; signatures equal to the BigInt reference of the elements;
// exact verification deciding on the weighted Jaccard of the counts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readShardMeta } from '../../src/formats/shards/shardSet.js';
import { readSignatureFile } from '../../src/formats/shards/signatureFile.js';
import { makeParams, paramDifferences, shingleOptionsOf } from '../../src/signatures/params.js';
import { shingleDocumentReference } from '../../src/shingles/shingles.js';
import { pairsToBigInts, signatureRef } from '../support/reference.js';
import { runCli, tempDir, runCliHere } from '../support/cli.js';

const lines = gunzipSync(readFileSync('data/sample.jsonl.gz'))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .slice(0, 20);
const CPU = ['--backend', 'cpu', '--threads', '1', '-q'];

describe('the weighting as a parameter', () => {
  it('is recorded only when counted, differences name it, and datasketch schemes refuse it', () => {
    expect('weights' in makeParams()).toBe(false);
    const counts = makeParams({ weights: 'counts' });
    expect(counts.weights).toBe('counts');
    expect(shingleOptionsOf(counts).weights).toBe('counts');
    expect(paramDifferences(counts, makeParams())).toEqual(['weights: counts vs none']);
    expect(() => makeParams({ weights: 'counts', scheme: 'datasketch-affine32' })).toThrow(/not datasketch's/);
    expect(() => makeParams({ weights: 'bm25' as 'counts' })).toThrow(/weights must be one of none, counts or idf/);
  });
});

describe('sign and dedup --weights counts', () => {
  it('sign writes the reference signatures of the counted elements, recorded; dedup refuses the other weighting', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, lines.join('\n') + '\n');
    const out = join(dir, 'sigs.npy');
    const signed = await runCli(['sign', input, '-o', out, '--weights', 'counts', '-k', '16', ...CPU]);
    expect(signed.stderr).toBe('');
    const sidecar = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as { params: { weights?: string } };
    expect(sidecar.params.weights).toBe('counts');
    const params = makeParams({ k: 16, weights: 'counts' });
    const file = await readSignatureFile(out, params);
    lines.forEach((line, d) => {
      const text = (JSON.parse(line) as { text: string }).text;
      const elements = pairsToBigInts(shingleDocumentReference(text, shingleOptionsOf(params)));
      expect(pairsToBigInts(file.words.subarray(32 * d, 32 * (d + 1)))).toEqual(signatureRef(elements, 16, 42n));
    });
    const report = join(dir, 'r.json');
    const ok = await runCliHere(['dedup', input, '--signatures', out, '--dry-run', '--report', report, '-q']);
    expect(ok.stderr).toBe('');
    const mixed = await runCliHere(['dedup', input, '--signatures', out, '--weights', 'none', '--dry-run', '-q']);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toMatch(/different parameters.*weights: counts vs none/);
    const containment = await runCli([
      'dedup',
      input,
      '--against',
      input,
      '--containment',
      '0.5',
      '--weights',
      'counts',
    ]);
    expect(containment.stderr).toMatch(/takes no --weights/);
  });

  it('exact verification decides on Σ min / Σ max of the counts', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    // Set Jaccard 36/40 = 0.9: the tripled text adds only its 4 boundary windows. Weighted: 36 / (3·36 + 2·4) ≈ 0.31.
    const docs = [
      { id: 'a', text: words },
      { id: 'b', text: `${words} ${words} ${words}` },
    ];
    writeFileSync(input, docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
    const removed = async (weights: string): Promise<number> => {
      const report = join(dir, `${weights}.json`);
      const args = ['dedup', input, '--weights', weights, '--verify', 'exact', '--threshold', '0.8', '--dry-run'];
      const result = await runCli([...args, '--report', report, ...CPU]);
      expect(result.stderr).toBe('');
      return (JSON.parse(readFileSync(report, 'utf8')) as { removed: number }).removed;
    };
    expect(await removed('none')).toBe(1);
    expect(await removed('counts')).toBe(0);
  });
});

describe('shards and the index record the weighting', () => {
  it('sign --shard writes it in the metadata and cluster refuses shards of both weightings', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, lines.join('\n') + '\n');
    const shards = [join(dir, 's1.parquet'), join(dir, 's2.parquet')];
    await runCliHere(['sign', input, '--shard', '1/2', '-o', shards[0], '--weights', 'counts', ...CPU]);
    await runCliHere(['sign', input, '--shard', '2/2', '-o', shards[1], ...CPU]);
    expect((await readShardMeta(shards[0])).params.weights).toBe('counts');
    expect((await readShardMeta(shards[1])).params.weights).toBeUndefined();
    const cluster = await runCliHere(['cluster', ...shards, '--clusters', join(dir, 'c.csv'), '-q']);
    expect(cluster.code).toBe(1);
    expect(cluster.stderr).toMatch(/weights: counts vs none/);
  });

  it('index create --weights counts writes it in the manifest', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, lines.join('\n') + '\n');
    const index = join(dir, 'index');
    const created = await runCli(['index', 'create', index, input, '--weights', 'counts', ...CPU]);
    expect(created.stderr).toBe('');
    const manifest = JSON.parse(readFileSync(join(index, 'manifest.json'), 'utf8')) as {
      parameters: { weights?: string };
    };
    expect(manifest.parameters.weights).toBe('counts');
  });
});
