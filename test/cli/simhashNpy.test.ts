// sign --scheme simhash writes one uint64 fingerprint a document to its .npy: numpy reads them equal to the
// TypeScript reference's fingerprints (an empty document all-ones), and dedup --signatures reads them back to the
// same result as signing in the run.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pack } from '../../src/shingles/shingleBatch.js';
import { shingleDocumentReference } from '../../src/shingles/shingles.js';
import { hashFamilyOf, makeParams, shingleOptionsOf } from '../../src/signatures/params.js';
import { fingerprintOf, signBatchSimhash } from '../../src/signatures/simhash.js';
import { runCli, tempDir } from '../support/cli.js';

const underCi = !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());

function hasNumpy(): boolean {
  try {
    execFileSync('python3', ['-c', 'import numpy'], { stdio: 'ignore' });
    return true;
  } catch {
    if (underCi) throw new Error('python3 cannot import numpy (CI is set, so this fails instead of skipping)');
    return false;
  }
}

const rows = [
  ...gunzipSync(readFileSync('data/sample.jsonl.gz')).toString('utf8').split('\n').filter(Boolean).slice(0, 40),
  JSON.stringify({ id: 'empty', text: '   ' }),
];
const CPU = ['--backend', 'cpu', '--threads', '1', '-q'];

describe.runIf(hasNumpy())('sign --scheme simhash: uint64 fingerprints in the .npy', () => {
  it('numpy reads one uint64 a document, equal to the reference fingerprints', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, rows.join('\n') + '\n');
    const out = join(dir, 'fp.npy');
    expect((await runCli(['sign', input, '--scheme', 'simhash', '-o', out, ...CPU])).stderr).toBe('');
    const program = [
      'import sys, numpy as np',
      'a = np.load(sys.argv[1])',
      'print(a.dtype, a.shape)',
      'print(" ".join(str(int(v)) for v in a[:, 0]))',
    ].join('\n');
    const [head, values] = execFileSync('python3', ['-c', program, out], { encoding: 'utf8' }).trim().split('\n');
    expect(head).toBe(`uint64 (${rows.length}, 1)`);
    const params = makeParams({ scheme: 'simhash' });
    const sets = rows.map((row) =>
      shingleDocumentReference((JSON.parse(row) as { text: string }).text, shingleOptionsOf(params)),
    );
    const slots = signBatchSimhash(hashFamilyOf(params).a, pack(sets));
    const expected = rows.map((_, d) => {
      const [lo, hi] = fingerprintOf(slots, d);
      return ((BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0)).toString();
    });
    expect(expected.at(-1)).toBe((2n ** 64n - 1n).toString()); // the empty document: all-ones
    expect(new Set(expected).size).toBeGreaterThan(30);
    expect(values.split(' ')).toEqual(expected);
  });

  it('dedup --signatures reads the fingerprints back: the same result as signing in the run', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, rows.join('\n') + '\n');
    const out = join(dir, 'fp.npy');
    await runCli(['sign', input, '--scheme', 'simhash', '-o', out, ...CPU]);
    const removed = async (args: string[]): Promise<number> => {
      const report = join(dir, `${args.length}.json`);
      const r = await runCli([
        'dedup',
        input,
        ...args,
        '--verify',
        'estimate',
        '--dry-run',
        '--report',
        report,
        ...CPU,
      ]);
      expect(r.stderr).toBe('');
      return (JSON.parse(readFileSync(report, 'utf8')) as { removed: number }).removed;
    };
    const inRun = await removed(['--scheme', 'simhash', '--max-hamming', '8']);
    expect(inRun).toBeGreaterThan(0);
    expect(await removed(['--signatures', out, '--max-hamming', '8'])).toBe(inRun);
  });
});
