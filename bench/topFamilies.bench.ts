/**
 * Top-K in dense families (issue 39): issue 39's case (per query, 15
 * documents at Jaccard 0.9415 among 4·lower at 0.9302; test/lshIndex/queryCorpus.ts
 * familyCorpus) in an on-disk index (compacted, opened read-only, one
 * thread): how many queries get the true top 1 and top 10 (brute force on
 * word 5-gram sets, ties equal), and each query's wall time, p50/p99 over
 * `--reps` rounds — what rescoring a whole family costs.
 *
 *   node dist/bench/topFamilies.bench.js [--lower 100] [--queries 10] [--reps 20]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIndex, openIndex } from '../src/lshIndex/diskIndex.js';
import { familyCorpus, jaccard, shingles } from '../test/lshIndex/queryCorpus.js';

const option = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

const corpus = familyCorpus(1, option('--lower', 100), option('--queries', 10));
const reps = option('--reps', 20);
const texts = corpus.queries.map((q) => q.text);
const sets = corpus.indexed.map((d) => shingles(d.text));
const truth = texts.map((q) => {
  const s = shingles(q);
  return new Map(corpus.indexed.map((d, i) => [d.id, jaccard(s, sets[i])]));
});
const dir = join(mkdtempSync(join(tmpdir(), 'gpudedup-families-')), 'index');
const writer = await createIndex(dir, { backend: 'cpu', threads: 1 });
await writer.add(corpus.indexed, { all: true });
await writer.compact();
await writer.close();
const reader = await openIndex(dir, { readOnly: true, threads: 1 });
await reader.query(texts, { top: 10 }); // builds the forests
console.log(`${corpus.indexed.length} documents, ${texts.length} queries × ${reps}; load average ${load()}`);
for (const top of [1, 10]) {
  let right = 0;
  const ms: number[] = [];
  for (let rep = 0; rep < reps; rep++) {
    for (const [q, text] of texts.entries()) {
      const started = performance.now();
      const [result] = await reader.query([text], { top });
      ms.push(performance.now() - started);
      if (rep > 0) continue;
      const got = result.matches.map((m) => truth[q].get(m.id)!.toFixed(9));
      const best = [...truth[q].values()].sort((a, b) => b - a).slice(0, top);
      if (got.join() === best.map((j) => j.toFixed(9)).join()) right++;
    }
  }
  ms.sort((a, b) => a - b);
  const at = (p: number): string => percentile(ms, p).toFixed(2);
  console.log(
    `top ${top}: right in ${right} of ${texts.length}; p50 ${at(0.5)} ms, p99 ${at(0.99)} ms; load ${load()}`,
  );
}
await reader.close();
rmSync(dir, { recursive: true, force: true });
