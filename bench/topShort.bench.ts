/**
 * Top-K of short queries (issue 39): runs of 12–20 words of indexed
 * documents asked of an on-disk index of N generated documents (as
 * bench/serve.bench.ts builds it: DIR/index-N), one at a time on one thread:
 * the first query's time (it builds the forests and the sampled postings),
 * p50/p99 of the rest, and the rows returned that share nothing with the
 * query (exact Jaccard 0).
 *
 *   node dist/bench/topShort.bench.js --index DIR/index-100000 --documents 100000 [--queries 500]
 */
import { loadavg } from 'node:os';
import { openIndex } from '../src/lshIndex/diskIndex.js';
import { Generator, licenceWords } from './scaleCorpus.js';

const option = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const documents = Number(option('--documents', '100000'));
const count = Number(option('--queries', '500'));
const generator = new Generator(licenceWords(), 1);
let seed = 7;
const random = (): number => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 2 ** 32;
};
const items = Array.from({ length: count }, () => {
  const words = generator.document(Math.floor(random() * documents)).text.split(/\s+/);
  const n = 12 + Math.floor(random() * 9);
  const at = Math.floor(random() * (words.length - n));
  return words.slice(at, at + n).join(' ');
});
const reader = await openIndex(option('--index', ''), { readOnly: true, threads: 1 });
let started = performance.now();
await reader.query([items[0]], { top: 10 });
const first = (performance.now() - started) / 1000;
const ms: number[] = [];
let rows = 0;
let nothingInCommon = 0;
let empty = 0;
for (const text of items) {
  started = performance.now();
  const [result] = await reader.query([text], { top: 10 });
  ms.push(performance.now() - started);
  rows += result.matches.length;
  if (result.matches.length === 0) empty++;
  for (const m of result.matches) if (m.exact === 0) nothingInCommon++;
}
ms.sort((a, b) => a - b);
const at = (p: number): string => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))].toFixed(2);
console.log(
  `short (12–20 words) top 10: first query ${first.toFixed(2)} s; p50 ${at(0.5)} ms, p99 ${at(0.99)} ms; ` +
    `rows at exact 0: ${nothingInCommon} of ${rows}; empty answers ${empty}/${count}; load ${loadavg()[0].toFixed(2)}`,
);
await reader.close();
