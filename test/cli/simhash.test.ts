// --scheme simhash through the built CLI (a command's further runs and the refusals in this process: runCliHere):
// sign records the scheme with k = 64; dedup bands by --max-hamming (h + 1 block tables), decides by Hamming
// distance, and refuses the flags that do not apply to it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeParams, SCHEMES } from '../../src/signatures/params.js';
import { fingerprintOf, signBatchSimhash, simhashKey } from '../../src/signatures/simhash.js';
import { pack } from '../../src/shingles/shingleBatch.js';
import { shingleDocument } from '../../src/shingles/shingles.js';
import { runCli, runCliHere, tempDir } from '../support/cli.js';

const CPU = ['--backend', 'cpu', '--threads', '1'];

/** 40 documents of 200 random words, and near-copies of the first 10 with one word changed. */
function corpus(): string {
  let state = 12345;
  const word = (): string => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return `w${state % 5000}`;
  };
  const docs = Array.from({ length: 40 }, () => Array.from({ length: 200 }, word));
  const near = docs.slice(0, 10).map((words) => words.map((w, i) => (i === 100 ? 'changed' : w)));
  return [...docs, ...near].map((words, i) => JSON.stringify({ id: `d${i}`, text: words.join(' ') })).join('\n') + '\n';
}

describe('--scheme simhash', () => {
  it('takes k = 64 and 32- or 64-bit slots only', () => {
    expect(makeParams({ scheme: 'simhash' }).k).toBe(64);
    expect(makeParams({ scheme: 'simhash', k: 128 }).k).toBe(64); // the table's default, as the CLI passes it
    expect(() => makeParams({ scheme: 'simhash', k: 32 })).toThrow(/k is 64, not 32/);
    expect(() => makeParams({ scheme: 'simhash', slotBits: 8, bandKeys: { bands: 4, rows: 16 } })).toThrow(
      /32- or 64-bit slots/,
    );
  });

  it('dedup removes the near-copies within Hamming 3 (all 10 at 15), and sign records the scheme', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, corpus());
    const report = join(dir, 'r.json');
    const args = ['dedup', input, '--scheme', 'simhash', '--verify', 'estimate', '--dry-run', '--report', report, '-q'];
    const run = await runCli([...args, ...CPU]);
    expect(run.stderr).toBe('');
    const r = JSON.parse(readFileSync(report, 'utf8')) as {
      removed: number;
      parameters: { bands: number; rows: number; threshold: number; verify: string };
    };
    expect(r.parameters).toMatchObject({ bands: 10, rows: 26, threshold: 61 / 64, verify: 'estimate' });
    const defaults = await runCliHere(['dedup', input, '--scheme', 'simhash', '--dry-run', '--report', report, '-q']);
    expect(defaults.stderr).toBe('');
    expect((JSON.parse(readFileSync(report, 'utf8')) as typeof r).parameters.verify).toBe('hybrid');
    // One word of 200 changes 5 of 196 word 5-grams: cosine ≈ 0.97, θ / π ≈ 0.07, about 5 bits apart on average. The
    // run removes exactly the copies whose fingerprints the library puts within 3 bits of their originals.
    const texts = corpus()
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { text: string }).text);
    const signatures = signBatchSimhash(simhashKey(0, 42), pack(texts.map((t) => shingleDocument(t))));
    let within = 0;
    for (let d = 0; d < 10; d++) {
      const [aLo, aHi] = fingerprintOf(signatures, d);
      const [bLo, bHi] = fingerprintOf(signatures, 40 + d);
      const bits = (x: number): number => x.toString(2).replaceAll('0', '').length;
      if (bits((aLo ^ bLo) >>> 0) + bits((aHi ^ bHi) >>> 0) <= 3) within++;
    }
    expect(r.removed).toBe(within);
    expect(within).toBeGreaterThan(0);
    const wide = join(dir, 'wide.json');
    await runCliHere([...args.slice(0, -3), '--max-hamming', '15', '--report', wide, '-q']);
    expect((JSON.parse(readFileSync(wide, 'utf8')) as { removed: number }).removed).toBe(10);

    const out = join(dir, 'sigs.npy');
    const signed = await runCli(['sign', input, '-o', out, '--scheme', 'simhash', '-q', ...CPU]);
    expect(signed.stderr).toBe('');
    const sidecar = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as { params: { scheme: string; k: number } };
    expect(sidecar.params).toMatchObject({ scheme: SCHEMES.simhash, k: 64 });
  });

  it('verifies by exact angular similarity, on this thread and on the workers', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, corpus());
    type Report = { removed: number; verification: { byExact: { accepted: number; rejected: number } } };
    const run = async (verify: string, h: number, threads: string): Promise<Report> => {
      const report = join(dir, `${verify}-${h}-${threads}.json`);
      const args = ['dedup', input, '--scheme', 'simhash', '--verify', verify, '--max-hamming', String(h)];
      const result = await runCliHere([...args, '--threads', threads, '--dry-run', '--report', report, '-q']);
      expect(result.stderr).toBe('');
      return JSON.parse(readFileSync(report, 'utf8')) as Report;
    };
    // The copies: 191 of 196 shingles shared, angular similarity 1 − arccos(191/196)/π ≈ 0.928, Jaccard 191/201 ≈
    // 0.950. At h = 4 the threshold 1 − 4/64 = 0.9375 lies between: angular rejects every copy, Jaccard would not.
    // At h = 15 (0.766) angular accepts them all.
    for (const threads of ['1', '2']) {
      const strict = await run('exact', 4, threads);
      expect(strict.removed).toBe(0);
      expect(strict.verification.byExact.rejected).toBeGreaterThan(0);
      expect((await run('exact', 15, threads)).removed).toBe(10);
      expect((await run('hybrid', 15, threads)).removed).toBe(10);
    }
  });

  it('refuses --threshold, --bands and --audit', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, corpus());
    const run = (args: string[]) => runCliHere(['dedup', input, '--scheme', 'simhash', '--dry-run', '-q', ...args]);
    expect((await run(['-t', '0.9'])).stderr).toMatch(/bands by --max-hamming, not --threshold/);
    expect((await run(['--bands', '4', '--rows', '16'])).stderr).toMatch(/not --bands/);
    expect((await run(['--audit', '10'])).stderr).toMatch(/not --audit/);
  });
});

describe('--scheme simhash in the index (test/lshIndex/simhashIndex.test.ts: its answers)', () => {
  it('index create bands by --max-hamming, query answers top K by the exact angle, and refuses what does not apply', async () => {
    const dir = tempDir();
    const [input, index] = [join(dir, 'in.jsonl'), join(dir, 'index')];
    writeFileSync(input, corpus());
    const refused = await runCliHere(['index', 'create', join(dir, 'other'), '--scheme', 'simhash', '-t', '0.9']);
    expect(refused.stderr).toMatch(/bands by --max-hamming, not --threshold/);
    const hamming = await runCliHere(['index', 'create', join(dir, 'other'), '--max-hamming', '4']);
    expect(hamming.stderr).toMatch(/--max-hamming applies to --scheme simhash only/);
    const created = await runCli([
      'index',
      'create',
      index,
      input,
      '--scheme',
      'simhash',
      '--max-hamming',
      '4',
      ...CPU,
    ]);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/threshold 0\.9375 \(Hamming ≤ 4\), 15 bands × 22 rows/);
    const queries = join(dir, 'q.jsonl');
    writeFileSync(queries, readFileSync(input, 'utf8').split('\n').slice(0, 2).join('\n') + '\n');
    const top = await runCli(['query', index, queries, '--top', '2', ...CPU]);
    expect(top.code).toBe(0);
    const lines = top.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { matches: { exact: number }[] });
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.matches[0].exact).toBe(1); // itself first
    const containment = await runCliHere(['query', index, queries, '--containment', '0.5', ...CPU]);
    expect(containment.stderr).toMatch(/containment .* simhash index answers top K and threshold queries/);
  });
});

describe('gpudedup params --max-hamming', () => {
  it('explains the block tables and Hamming against cosine (P[bit differs] = θ / π)', async () => {
    const text = await runCliHere(['params', '--max-hamming', '3']);
    expect(text.stdout).toMatch(/5 blocks of 12–13 bits, 10 block tables of 2 \(25–26 bits\)/);
    expect(text.stdout).toMatch(/probability θ \/ π/);
    expect(text.stdout).toMatch(/cosine ≳ 0\.9892/);
    const json = JSON.parse((await runCliHere(['params', '--max-hamming', '4', '--json'])).stdout) as {
      blocks: number;
      bitsPerBlock: { least: number; most: number };
      tables: number;
      distances: { hamming: number; cosine: number }[];
    };
    expect(json).toMatchObject({ blocks: 6, bitsPerBlock: { least: 10, most: 11 }, blocksPerTable: 2, tables: 15 });
    expect(json).toMatchObject({ bitsPerTable: { least: 20, most: 22 } });
    expect(json.distances.find((d) => d.hamming === 16)?.cosine).toBeCloseTo(Math.SQRT1_2, 12);
  });
});
