/**
 * Query latency of an existing on-disk index, the library on one thread
 * (issue 39 item 3: the index at 1 M), with queries drawn from the corpus it
 * was built from (bench/corpusQueries.ts): top 10 of whole documents (half
 * near copies), containment ≥ 0.8 of 20–200-word excerpts, and top 10 of
 * 12–20-word runs. Per kind: the first queries (a long and a short one: they build
 * the forests and the postings), then wall and CPU (user + sys of the process) p50/p99 of the
 * queries, the answers with a match, and the load average.
 *
 *   node dist/bench/index1m.bench.js --index DIR --corpus A.jsonl,B.jsonl [--queries 1000] [--kinds top,containment,short]
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { openIndex } from '../src/lshIndex/diskIndex.js';
import { queryTexts, sampleDocuments } from './corpusQueries.js';

const option = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const rss = (): string => `${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`;

const dir = option('--index', '');
const count = Number(option('--queries', '1000'));
const kinds = option('--kinds', 'top,containment,short').split(',');
const passes = Number(option('--passes', '1'));
const answersFile = option('--answers', '');
const answers: string[] = [];
const documents = sampleDocuments(option('--corpus', '').split(','), count);
const texts = queryTexts(documents);
const cases = {
  top: { texts: texts.full, options: { top: 10 } },
  containment: { texts: texts.excerpt, options: { containment: 0.8 } },
  short: { texts: texts.short, options: { top: 10 } },
} as const;

console.log(`index1m: ${dir}, ${documents.length} documents drawn; load average ${load()}`);
let t = performance.now();
const reader = await openIndex(dir, { readOnly: true, threads: 1 });
console.log(`opened in ${(performance.now() - t).toFixed(0)} ms, rss ${rss()}`);
/** One pass of a kind's queries: its line of percentiles and its slowest queries (the first pass's answers kept). */
async function timed(kind: string, asked: readonly string[], options: object, pass: number): Promise<void> {
  const ms: number[] = [];
  const cpu: number[] = [];
  let matched = 0;
  let zero = 0;
  let rows = 0;
  const slowest: { ms: number; words: number; matches: number }[] = [];
  for (const text of asked) {
    const c = process.cpuUsage();
    const s = performance.now();
    const [r] = await reader.query([text], options);
    const wall = performance.now() - s;
    const d = process.cpuUsage(c);
    ms.push(wall);
    cpu.push((d.user + d.system) / 1000);
    if (r.matches.length > 0) matched++;
    rows += r.matches.length;
    zero += r.matches.filter((m) => m.exact === 0).length;
    slowest.push({ ms: Math.round(wall), words: text.split(/\s+/).length, matches: r.matches.length });
    if (pass === 1 && answersFile !== '') answers.push(`${JSON.stringify({ kind, matches: r.matches })}\n`);
  }
  ms.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const at = (p: number) => `wall ${percentile(ms, p).toFixed(2)} ms, CPU ${percentile(cpu, p).toFixed(2)} ms`;
  const name = passes > 1 ? `${kind} (pass ${pass})` : kind;
  console.log(
    `${name}: p50 ${at(0.5)}; p99 ${at(0.99)}; max wall ${ms[ms.length - 1].toFixed(1)} ms; ` +
      `${matched}/${asked.length} with matches (${rows} rows), ${zero} rows at exact 0; load ${load()}; rss ${rss()}`,
  );
  slowest.sort((a, b) => b.ms - a.ms);
  console.log(`${name}: slowest ${JSON.stringify(slowest.slice(0, 5))}`);
}

for (const kind of kinds) {
  const { texts: asked, options } = cases[kind as keyof typeof cases];
  t = performance.now();
  // The first query builds the forests, and a short one the postings too: both before the timed queries.
  await reader.query([asked[0]], options);
  await reader.query([texts.short[0]], options);
  console.log(`${kind}: first query (builds) ${((performance.now() - t) / 1000).toFixed(2)} s, rss ${rss()}`);
  for (let pass = 1; pass <= passes; pass++) await timed(kind, asked, options, pass);
}
if (answersFile !== '') writeFileSync(answersFile, answers.join(''));
await reader.close();
process.exit(0);
