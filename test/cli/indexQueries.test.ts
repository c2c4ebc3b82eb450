/**
 * `gpudedup query --top / --containment / --rerank` as a user runs them (the
 * built CLI, real files): the forest's answers on an index of two segments,
 * each line's fields, the index directory left byte for byte as it was (the
 * forests live in memory only: nothing a crash could leave half-written),
 * and bad values refused by the options table before any work.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir, type CliResult } from '../support/cli.js';
import { common, nearCorpus, plantedItems, shingles } from '../lshIndex/queryCorpus.js';

const jsonl = (docs: readonly object[]): string => docs.map((d) => JSON.stringify(d)).join('\n') + '\n';
const ok = (result: CliResult): CliResult => {
  expect(result.code, result.stderr).toBe(0);
  return result;
};
const CPU = ['--backend', 'cpu', '--threads', '1'];
const lines = (r: CliResult) =>
  r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

/** Every file of the directory with its bytes. */
const snapshot = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((name) => [name, readFileSync(join(dir, name)).toString('base64')]),
  );

describe('gpudedup query --top and --containment', () => {
  it('answers from the forests with estimate and exact values, writing nothing into the index', async () => {
    const dir = tempDir();
    const index = join(dir, 'index');
    const near = nearCorpus(5, 6, 6, 1);
    const planted = plantedItems(9, { hosts: 6, perHost: 1, host: [200, 400], item: [80, 120], strays: 1 });
    const docs = [
      ...near.indexed.map((text, i) => ({ id: `n${i}`, text })),
      ...planted.hosts.map((text, i) => ({ id: `h${i}`, text })),
    ];
    writeFileSync(join(dir, 'a.jsonl'), jsonl(docs.slice(0, 20)));
    writeFileSync(join(dir, 'b.jsonl'), jsonl(docs.slice(20)));
    ok(await runCli(['index', 'create', index, join(dir, 'a.jsonl'), '--all', ...CPU]));
    ok(await runCli(['index', 'add', index, join(dir, 'b.jsonl'), '--all', ...CPU]));
    const before = snapshot(index);

    const probe = near.queries.map((text, i) => ({ id: `q${i}`, text }));
    const top = lines(ok(await runCli(['query', index, '-', '--top', '4', ...CPU], jsonl(probe))));
    expect(top.map((l) => l.id)).toEqual(probe.map((p) => p.id));
    top.forEach((line, c) => {
      expect(line.matches).toHaveLength(4);
      // The cluster's members are the nearest (other clusters share nothing).
      for (const m of line.matches) expect(Math.floor(Number(m.id.slice(1)) / 6)).toBe(c);
      for (const m of line.matches) expect(Object.keys(m)).toEqual(['id', 'similarity', 'exact']);
      const exacts = line.matches.map((m: { exact: number }) => m.exact);
      expect(exacts).toEqual([...exacts].sort((x, y) => y - x));
    });
    const estimated = lines(
      ok(await runCli(['query', index, '-', '--top', '2', '--rerank', 'estimate', ...CPU], jsonl(probe))),
    );
    for (const line of estimated) for (const m of line.matches) expect(Object.keys(m)).toEqual(['id', 'similarity']);

    const items = planted.items.map((text, i) => ({ id: `i${i}`, text }));
    const contained = lines(ok(await runCli(['query', index, '-', '--containment', '0.8', ...CPU], jsonl(items))));
    contained.forEach((line, i) => {
      const q = shingles(planted.items[i]);
      const truth = planted.hosts
        .map((h, x) => ({ id: `h${x}`, c: common(q, shingles(h)) / q.size }))
        .filter((x) => x.c >= 0.8);
      expect(line.matches.map((m: { id: string }) => m.id).sort()).toEqual(truth.map((x) => x.id).sort());
      for (const m of line.matches)
        expect(Object.keys(m)).toEqual(['id', 'similarity', 'exact', 'containment', 'exactContainment']);
    });
    expect(contained.filter((l) => l.matches.length > 0).length).toBeGreaterThanOrEqual(4);
    expect(snapshot(index)).toEqual(before);
  });

  it('refuses bad values, and what the index cannot do, in one line', async () => {
    const dir = tempDir();
    const index = join(dir, 'index');
    writeFileSync(join(dir, 'a.jsonl'), jsonl([{ id: 'a', text: 'one two three four five six' }]));
    ok(await runCli(['index', 'create', index, join(dir, 'a.jsonl'), '--verify', 'estimate', ...CPU]));
    for (const [args, message] of [
      [['--top', '0'], /top must be an integer from 1 to 10000, got 0/],
      [['--containment', '1.5'], /containment must be a number above 0 and at most 1, got 1.5/],
      [['--top', '2', '--rerank', 'best'], /rerank must be exact or estimate/],
      [['--top', '2', '--rerank', 'exact'], /rerank exact needs the shingle sets, which this index does not store/],
    ] as const) {
      const result = await runCli(['query', index, '-', ...args, ...CPU], jsonl([{ id: 'q', text: 'one two three' }]));
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(message);
    }
  });
});
