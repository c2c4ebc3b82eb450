// Signatures spilled past --memory-limit: band keys from one pass over the file (in memory or one file per
// band), the candidates' rows loaded after banding; every output equals the run that held all rows. Shingle
// sets past their share: read one at a time from the first pass's file, every output again the same.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runDedup, type DedupConfig, type DedupOutcome } from '../../../src/pipeline/dedup/dedup.js';
import { runSign } from '../../../src/pipeline/sign/sign.js';
import { makeParams } from '../../../src/signatures/params.js';
import { tempDir } from '../../support/cli.js';
import { testDedupConfig } from '../../support/dedupConfig.js';

const lines = gunzipSync(readFileSync('data/sample.jsonl.gz')).toString('utf8').split('\n').filter(Boolean);
const dir = tempDir();
const corpus = join(dir, 'corpus.jsonl');
writeFileSync(corpus, lines.join('\n') + '\n');
// A reference set: every 25th licence, so decontamination removes some groups and banding runs again without them.
const reference = join(dir, 'reference.jsonl');
writeFileSync(reference, lines.filter((_, i) => i % 25 === 0).join('\n') + '\n');

const base = testDedupConfig([corpus]);

function expectSameResult(spilled: DedupOutcome, held: DedupOutcome): void {
  expect([...spilled.assignment.cluster]).toEqual([...held.assignment.cluster]);
  expect([...spilled.assignment.kept]).toEqual([...held.assignment.kept]);
  expect([...spilled.verified.a]).toEqual([...held.verified.a]);
  expect([...spilled.verified.b]).toEqual([...held.verified.b]);
  expect([...spilled.verified.estimate]).toEqual([...held.verified.estimate]);
  expect(spilled.verified.decided).toEqual(held.verified.decided);
  expect(spilled.candidateStats).toEqual(held.candidateStats);
  expect(spilled.contamination?.removedGroups).toEqual(held.contamination?.removedGroups);
  expect([...(spilled.contamination?.match ?? [])]).toEqual([...(held.contamination?.match ?? [])]);
}

describe('dedup with signatures spilled to disk', () => {
  const cases: Array<[string, Partial<DedupConfig>]> = [
    ['hybrid verification, 64-bit slots', {}],
    ['exact verification, with a reference set', { verify: 'exact', against: [reference] }],
    [
      'estimate verification, 32-bit slots, with a reference set',
      { verify: 'estimate', params: makeParams({ k: 64, slotBits: 32 }), against: [reference] },
    ],
    [
      '8-bit slots with stored band keys',
      { verify: 'estimate', params: makeParams({ k: 64, slotBits: 8, bandKeys: { bands: 10, rows: 6 } }) },
    ],
  ];
  for (const [index, [name, change]] of cases.entries()) {
    it(`gives the results of the run that held every row: ${name}`, async () => {
      const config = { ...base, ...change };
      const held = await runDedup(config);
      expect(held.timings['band keys']).toBeUndefined(); // the default limit holds the sample's rows
      if (config.against.length > 0) expect(held.contamination!.removedGroups).toBeGreaterThan(0);
      // Two threads read the spilled rows on the stage workers (src/bands/rowWorkers.ts), one on this thread.
      for (const [memoryLimitBytes, keysOnDisk, threads] of [
        [256 * 1024, false, 2], // rows spill (32 KiB share), band keys fit (64 KiB share)
        [16 * 1024, true, 2], // band keys spill too, a file per band
        [256 * 1024, false, 1],
        [16 * 1024, true, 1],
      ] as const) {
        const spillDir = join(dir, `spill-${index}-${memoryLimitBytes}-${threads}`);
        mkdirSync(spillDir);
        const seen: string[] = [];
        const last = new Map<string, [done: number, total: number | undefined]>();
        const hooks = {
          note: (m: string) => seen.push(m),
          stage: (label: string, total: number | undefined) => ({
            update: (done: number) => void last.set(label, [done, total]),
            stop: () => undefined,
          }),
        };
        // The sets keep the held run's room: this compares spilled rows alone (the next suite limits the sets).
        const spilled = await runDedup(
          { ...config, memoryLimitBytes, threads, shingleSetBytes: Number.POSITIVE_INFINITY, tempDirectory: spillDir },
          hooks,
        );
        expect(spilled.timings['band keys']).toBeDefined();
        expect(spilled.timings['load candidate rows']).toBeDefined();
        // Both passes over the rows show progress, in rows read, up to every row.
        for (const stage of ['band keys', 'load candidate rows'])
          expect(last.get(stage), stage).toEqual([spilled.table.groups, spilled.table.groups]);
        expect(seen.some((m) => m.includes(`spilling them to ${spillDir}`))).toBe(true);
        expect(seen.some((m) => m.includes('band keys'))).toBe(keysOnDisk);
        expectSameResult(spilled, held);
        expect(readdirSync(spillDir)).toEqual([]); // the temporary files are gone
      }
    });
  }

  it('names the temporary file and --temp-directory when the spill cannot be written', async () => {
    await expect(
      runDedup({ ...base, memoryLimitBytes: 64 * 1024, tempDirectory: join(dir, 'no-such-dir') }),
    ).rejects.toThrow(
      /cannot create the temporary file .*no-such-dir.*gpudedup-.*\.rows for spilled signatures: .*ENOENT.*--temp-directory/,
    );
  });
});

describe('dedup with shingle sets past their share of --memory-limit', () => {
  const quietHooks = (notes: string[]) => ({
    note: (m: string) => notes.push(m),
    stage: () => ({ update: () => undefined, stop: () => undefined }),
  });

  for (const verify of ['hybrid', 'exact'] as const) {
    it(`reads the sets past it one at a time from the first pass's file: every pair decided exactly, as with no limit (${verify})`, async () => {
      const config: DedupConfig = { ...base, verify };
      const unlimited = await runDedup(config);
      expect(unlimited.shingleSets.overBudget).toBe(0);
      const notes: string[] = [];
      // A 1 MiB limit: 256 KiB of sets and tables, a fraction of what exact Jaccard asks for here.
      const spillDir = join(dir, `sets-${verify}`);
      mkdirSync(spillDir);
      const limited = await runDedup(
        { ...config, memoryLimitBytes: 2 ** 20, tempDirectory: spillDir },
        quietHooks(notes),
      );
      expect(
        notes.some(
          (m) =>
            m.includes(`shingle sets passed their share of --memory-limit 1 MiB`) &&
            m.includes(`spilling them to ${spillDir}`),
        ),
      ).toBe(true);
      expect(limited.shingleSets.overBudget).toBe(0);
      expect(limited.verified.decided.estimatePastMemoryLimit).toBe(0);
      expect(limited.clustering.checkDecided.estimatePastMemoryLimit).toBe(0);
      expect(notes.some((m) => m.startsWith('warning:'))).toBe(false);
      expectSameResult(limited, unlimited);
      expect([...limited.verified.exact!]).toEqual([...unlimited.verified.exact!]);
      expect(limited.clustering.checkDecided).toEqual(unlimited.clustering.checkDecided);
      expect(readdirSync(spillDir)).toEqual([]);
    });
  }

  it('with presigned rows (sets from one more pass over the files) decides the pairs whose sets did not fit by the estimate, says so, and counts them', async () => {
    const signatures = join(dir, 'presigned.npy');
    await runSign({
      inputs: [corpus],
      read: base.read,
      params: base.params,
      backend: 'cpu',
      out: signatures,
      resume: false,
    });
    const config: DedupConfig = { ...base, signatures };
    const unlimited = await runDedup(config);
    expect(unlimited.shingleSets.overBudget).toBe(0);
    expect(unlimited.verified.decided.estimatePastMemoryLimit).toBe(0);
    const notes: string[] = [];
    // A 1 MiB limit: under 256 KiB of sets (the per-document table shares it), a fraction of what hybrid asks for here.
    const limited = await runDedup({ ...config, memoryLimitBytes: 2 ** 20, tempDirectory: dir }, quietHooks(notes));
    const d = limited.verified.decided;
    expect(limited.shingleSets.overBudget).toBeGreaterThan(0);
    expect(d.estimatePastMemoryLimit).toBeGreaterThan(0);
    expect(d.exactAccepted + d.exactRejected).toBeGreaterThan(0); // the sets that fit still decide exactly
    expect(d.estimateAccepted + d.estimateRejected + d.exactAccepted + d.exactRejected).toBe(
      limited.verified.candidates,
    );
    // Every pair the unlimited run decided exactly is now decided exactly or by the estimate: the same candidates.
    expect(d.exactAccepted + d.exactRejected + d.estimatePastMemoryLimit).toBe(
      unlimited.verified.decided.exactAccepted + unlimited.verified.decided.exactRejected,
    );
    expect(limited.clustering.checkDecided.undecided).toBe(0); // past the limit the check falls back to the estimate too
    expect(
      notes.some((m) =>
        /warning: the shingle sets of \d+ texts passed their share \(\d+ KiB\) of --memory-limit: \d+ candidate pairs and \d+ cluster-check comparisons were decided by the signature estimate/.test(
          m,
        ),
      ),
    ).toBe(true);
  });
});
