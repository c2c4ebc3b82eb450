/**
 * The quality bar, on real text (data/sample.jsonl.gz: 727 SPDX
 * licence texts with real near-duplicates), split into A (even lines) and B
 * (odd lines) so that near-duplicate pairs straddle the two: `index create
 * I A` then `index add I B` must keep a set as clean as one `dedup A B` with
 * defaults. Against exact Jaccard of word 5-gram sets (the reference shingler,
 * shingleDocumentReference, by brute force over all pairs):
 *
 * - residual at J ≥ t (kept documents with an earlier kept document at J ≥ t,
 *   over the documents that have any partner at J ≥ t): the index's at most
 *   dedup's + 0.05 percentage points;
 * - every match the index reported is verified as dedup verifies: where it
 *   gives exact Jaccard, that is the true J and at least t; pairs decided by
 *   the estimate alone fall below t no more often than dedup's --pairs do.
 *
 * The numbers are printed (bench/RESULTS.md quotes them).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { shingleDocumentReference } from '../../src/shingles/shingles.js';
import { runCli, tempDir } from '../support/cli.js';
import { denseSets, jaccard } from '../../bench/bruteForceJaccard.js';

const T = 0.8;

/** Sorted dense shingle ids per document (the reference shingler), shared ids across documents. */
const shingleSets = (texts: readonly string[]): Int32Array[] =>
  denseSets(texts.map((text) => shingleDocumentReference(text)));

const idsOf = (jsonl: string): string[] =>
  jsonl
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { id: string }).id);

/** Rows of a CSV written by gpudedup (no quoted cells here: licence ids have no commas). */
function csvRows(text: string): Record<string, string>[] {
  const [header, ...rows] = text.trim().split('\n');
  const columns = header.split(',');
  return rows.filter(Boolean).map((row) => Object.fromEntries(row.split(',').map((cell, i) => [columns[i], cell])));
}

describe('index add A then B keeps a set as clean as dedup of A followed by B (real text)', () => {
  it('residual at J ≥ t within 0.05 percentage points of dedup, every reported match verified', async () => {
    const dir = tempDir();
    const lines = gunzipSync(readFileSync('data/sample.jsonl.gz')).toString('utf8').split('\n').filter(Boolean);
    const a = lines.filter((_, i) => i % 2 === 0);
    const b = lines.filter((_, i) => i % 2 === 1);
    writeFileSync(join(dir, 'a.jsonl'), a.join('\n') + '\n');
    writeFileSync(join(dir, 'b.jsonl'), b.join('\n') + '\n');
    const cpu = ['--backend', 'cpu', '-q'];
    const dedup = await runCli([
      'dedup',
      join(dir, 'a.jsonl'),
      join(dir, 'b.jsonl'),
      '-o',
      join(dir, 'dedup.jsonl'),
      '--pairs',
      join(dir, 'pairs.csv'),
      ...cpu,
    ]);
    expect(dedup.code, dedup.stderr).toBe(0);
    const index = join(dir, 'index');
    const created = await runCli([
      'index',
      'create',
      index,
      join(dir, 'a.jsonl'),
      '-o',
      join(dir, 'ka.jsonl'),
      '--matches',
      join(dir, 'ma.csv'),
      ...cpu,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const added = await runCli([
      'index',
      'add',
      index,
      join(dir, 'b.jsonl'),
      '-o',
      join(dir, 'kb.jsonl'),
      '--matches',
      join(dir, 'mb.csv'),
      ...cpu,
    ]);
    expect(added.code, added.stderr).toBe(0);

    // The truth, in the order dedup read the corpus (A then B).
    const docs = [...a, ...b].map((l) => JSON.parse(l) as { id: string; text: string });
    const position = new Map(docs.map((d, i) => [d.id, i]));
    const sets = shingleSets(docs.map((d) => d.text));
    const sim = (x: number, y: number): number => jaccard(sets[x], sets[y]);
    let withPartner = 0;
    for (let x = 0; x < docs.length; x++) {
      for (let y = 0; y < docs.length; y++) {
        if (x !== y && sim(x, y) >= T) {
          withPartner++;
          break;
        }
      }
    }
    const residual = (kept: readonly string[]): number => {
      const order = kept.map((id) => position.get(id)!).sort((x, y) => x - y);
      let left = 0;
      order.forEach((d, i) => {
        if (order.slice(0, i).some((e) => sim(e, d) >= T)) left++;
      });
      return left / withPartner;
    };
    const keptDedup = idsOf(readFileSync(join(dir, 'dedup.jsonl'), 'utf8'));
    const keptIndex = [
      ...idsOf(readFileSync(join(dir, 'ka.jsonl'), 'utf8')),
      ...idsOf(readFileSync(join(dir, 'kb.jsonl'), 'utf8')),
    ];
    const rDedup = residual(keptDedup);
    const rIndex = residual(keptIndex);

    const matches = [
      ...csvRows(readFileSync(join(dir, 'ma.csv'), 'utf8')),
      ...csvRows(readFileSync(join(dir, 'mb.csv'), 'utf8')),
    ];
    let exactGiven = 0;
    let belowT = 0;
    for (const m of matches) {
      const j = sim(position.get(m.id)!, position.get(m.matched)!);
      if (m.exact !== '') {
        exactGiven++;
        expect(Number(m.exact), `${m.id} → ${m.matched}`).toBeCloseTo(j, 5);
        expect(Number(m.exact)).toBeGreaterThanOrEqual(T);
      }
      if (j < T) belowT++;
    }
    const pairs = csvRows(readFileSync(join(dir, 'pairs.csv'), 'utf8'));
    const pairsBelowT = pairs.filter((p) => sim(position.get(p.id_a)!, position.get(p.id_b)!) < T).length;

    // Documents only the index kept: how close each is to what dedup kept (dedup's representative check removes down to t − 0.1).
    const dedupKept = keptDedup.map((id) => position.get(id)!);
    const onlyIndex = keptIndex
      .filter((id) => !keptDedup.includes(id))
      .map((id) => Math.max(...dedupKept.map((e) => sim(e, position.get(id)!))));
    const pp = (x: number): string => (100 * x).toFixed(2);
    console.log(
      `kept by the index, not by dedup: ${onlyIndex.length}, their best J to dedup's kept documents: ${onlyIndex
        .map((j) => j.toFixed(3))
        .sort()
        .join(' ')}`,
    );
    console.log(
      `quality (t = ${T}, ${docs.length} documents, ${withPartner} with a partner at J ≥ t): ` +
        `dedup kept ${keptDedup.length}, residual ${pp(rDedup)} %, ${pairs.length} pairs (${pairsBelowT} below t); ` +
        `index kept ${keptIndex.length}, residual ${pp(rIndex)} %, ${matches.length} matches (${exactGiven} with exact Jaccard, ${belowT} below t)`,
    );
    expect(rIndex).toBeLessThanOrEqual(rDedup + 0.0005);
    expect(belowT / Math.max(matches.length, 1)).toBeLessThanOrEqual(pairsBelowT / Math.max(pairs.length, 1) + 0.01);
    expect(matches.length).toBeGreaterThan(0);
  }, 300_000);
});
