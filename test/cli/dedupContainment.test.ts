/**
 * `gpudedup dedup CORPUS --against REF --containment C` as a user runs it:
 * short reference items planted inside long corpus documents are found
 * (brute force decides which documents hold ≥ C of an item), the others are
 * kept byte for byte, and --contamination names the reference file and item.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir, runCliHere } from '../support/cli.js';
import { common, plantedItems, shingles } from '../lshIndex/queryCorpus.js';

const CPU = ['--backend', 'cpu', '--threads', '1'];

describe('dedup --against --containment', () => {
  it('removes the documents that contain a reference item, per reference file', async () => {
    const dir = tempDir();
    const corpus = plantedItems(21, { hosts: 40, perHost: 1, host: [1000, 3000], item: [20, 60], strays: 0 });
    const docs = corpus.hosts.map((text, i) => ({ id: `doc${i}`, text, extra: i % 2 === 0 ? 'é\u2028' : 7 }));
    const lines = docs.map((d) => JSON.stringify(d));
    writeFileSync(join(dir, 'corpus.jsonl'), lines.join('\n') + '\n');
    // Two reference files: items 0–9 (planted), and items 10–14 planted plus five never planted.
    const strays = plantedItems(22, { hosts: 0, perHost: 0, host: [0, 0], item: [20, 60], strays: 5 }).items;
    const refs: [string, string[]][] = [
      ['eval-a.jsonl', corpus.items.slice(0, 10)],
      ['eval-b.jsonl', [...corpus.items.slice(10, 15), ...strays]],
    ];
    for (const [name, items] of refs)
      writeFileSync(
        join(dir, name),
        items.map((text, i) => JSON.stringify({ id: `${name}#${i}`, text })).join('\n') + '\n',
      );

    const result = await runCli([
      'dedup',
      join(dir, 'corpus.jsonl'),
      '--against',
      join(dir, 'eval-a.jsonl'),
      '--against',
      join(dir, 'eval-b.jsonl'),
      '--containment',
      '0.8',
      '-o',
      join(dir, 'kept.jsonl'),
      '--contamination',
      join(dir, 'contaminated.csv'),
      ...CPU,
    ]);
    expect(result.code, result.stderr).toBe(0);
    // Brute force: the documents holding ≥ 0.8 of some item's shingles.
    const hostSets = corpus.hosts.map((h) => shingles(h));
    const contaminated = new Set<number>();
    for (const [, items] of refs)
      for (const item of items) {
        const q = shingles(item);
        hostSets.forEach((x, d) => {
          if (common(q, x) / q.size >= 0.8) contaminated.add(d);
        });
      }
    expect(contaminated.size).toBeGreaterThanOrEqual(9); // a third of the items are edited (some below 0.8)
    expect(readFileSync(join(dir, 'kept.jsonl'), 'utf8')).toBe(
      lines
        .filter((_, d) => !contaminated.has(d))
        .map((l) => l + '\n')
        .join(''),
    );
    const rows = readFileSync(join(dir, 'contaminated.csv'), 'utf8').trim().split('\n');
    expect(rows[0]).toBe('id,reference_file,reference_id,containment');
    expect(
      rows
        .slice(1)
        .map((r) => r.split(',')[0])
        .sort(),
    ).toEqual([...contaminated].map((d) => `doc${d}`).sort());
    const fileOf = (r: string) => r.split(',')[1];
    expect(rows.slice(1).filter((r) => fileOf(r).endsWith('eval-b.jsonl')).length).toBeGreaterThanOrEqual(2);
    expect(result.stdout).toMatch(new RegExp(`removed ${contaminated.size} of 40 documents`));
    expect(result.stdout).toMatch(/eval-a\.jsonl: 10 reference documents, \d+ corpus documents? removed/);
  });

  it('refuses what it cannot do, in one line, before any work', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'c.jsonl'), '{"text":"a b c d e f"}\n');
    const cases: [string[], RegExp][] = [
      [['--containment', '0.8', '-o', join(dir, 'k.jsonl')], /--containment needs --against/],
      [
        ['--against', join(dir, 'c.jsonl'), '--containment', '0.8', '--clusters', join(dir, 'x.csv')],
        /--containment writes -o and --contamination only \(not --clusters\)/,
      ],
      [
        ['--against', join(dir, 'c.jsonl'), '--containment', '0', '-o', join(dir, 'k.jsonl')],
        /containment must be a number above 0 and at most 1/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await runCliHere(['dedup', join(dir, 'c.jsonl'), ...args, ...CPU]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(message);
    }
  });
});
