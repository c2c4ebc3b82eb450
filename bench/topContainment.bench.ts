/**
 * Top-K and containment queries of the index (issue 33) against brute force,
 * and beside datasketch 2.0's MinHashLSHForest and MinHashLSHEnsemble on the
 * same signatures (bench/datasketchQueries.py, `--datasketch`).
 *
 *   node dist/bench/topContainment.bench.js top --sample [--datasketch]
 *   node dist/bench/topContainment.bench.js top --documents 100000 --queries 1000 [--datasketch]
 *   node dist/bench/topContainment.bench.js containment --hosts 1000 [--datasketch]
 *   node dist/bench/topContainment.bench.js latency --index DIR --documents N [--queries 1000]
 *
 * top: an in-memory index (the engine the disk index runs) of the sample
 * (each of its 727 documents asked, itself left out) or of N generated
 * documents (bench/scaleCorpus.ts) asked with the Q next ones. Truth: exact
 * Jaccard of the shingle sets by an inverted index (every shared shingle
 * counted). Recall@K at floor F: of each query's true K nearest, those at
 * J ≥ F, the share among the K returned.
 * containment: H hosts of 1–20 k words of licence text, each holding one
 * planted item of 20–200 words (a third of the items asked with a word in ten
 * replaced), asked with C = 0.8; truth by the inverted index.
 * latency: an on-disk index of the generator's first N documents (as
 * bench/serve.bench.ts builds it: DIR/index-N), opened read-only; the first
 * queries' forest and postings builds timed apart; then top-10 (the
 * generator's next documents) and containment ≥ 0.8 (excerpts of 20–200
 * words of indexed documents), one at a time on one thread: p50/p99 of
 * wall time and of the process's CPU time (user + sys) per query.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { openIndex } from '../src/lshIndex/diskIndex.js';
import { createMemoryIndex } from '../src/lshIndex/memoryIndex.js';
import { resolveParameters } from '../src/lshIndex/options.js';
import { inlineIndexSigner, signTexts } from '../src/lshIndex/signing.js';
import { denseSets } from './bruteForceJaccard.js';
import { Generator, licenceWords } from './scaleCorpus.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : fallback;
};
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const parameters = resolveParameters({});
const signer = inlineIndexSigner(parameters);

/** Each query's common shingle count with every document it shares one with, by an inverted index. */
function commonCounts(indexed: readonly Int32Array[], queries: readonly Int32Array[]): Map<number, number>[] {
  const postings = new Map<number, number[]>();
  indexed.forEach((set, d) => {
    for (const s of set) {
      const list = postings.get(s);
      if (list === undefined) postings.set(s, [d]);
      else list.push(d);
    }
  });
  return queries.map((set) => {
    const counts = new Map<number, number>();
    for (const s of set) for (const d of postings.get(s) ?? []) counts.set(d, (counts.get(d) ?? 0) + 1);
    return counts;
  });
}

/** Texts signed once, for the truth (their sets) and for datasketch (their rows and set sizes). */
interface Signed {
  readonly sets: Uint32Array[];
  readonly words: Uint32Array[];
  readonly sizes: number[];
}

async function signAll(texts: readonly string[]): Promise<Signed> {
  const signed: Signed = { sets: [], words: [], sizes: [] };
  for (let from = 0; from < texts.length; from += 5000) {
    const part = await signTexts(texts.slice(from, from + 5000), signer, parameters, true);
    signed.sets.push(...part.sets!);
    signed.words.push(part.words);
    signed.sizes.push(...part.sets!.map((set) => set.length / 2));
  }
  return signed;
}

async function indexOf(texts: readonly string[]) {
  const index = createMemoryIndex({ signer });
  const started = performance.now();
  for (let from = 0; from < texts.length; from += 5000)
    await index.add(
      texts.slice(from, from + 5000).map((text, i) => ({ id: String(from + i), text })),
      { all: true },
    );
  return { index, seconds: (performance.now() - started) / 1000 };
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** Queries one at a time: each one's ids, and the latencies. */
async function timedQueries(
  index: Awaited<ReturnType<typeof indexOf>>['index'],
  texts: readonly string[],
  options: object,
) {
  const found: number[][] = [];
  const ms: number[] = [];
  for (const text of texts) {
    const t = performance.now();
    const [r] = await index.query([text], options);
    ms.push(performance.now() - t);
    found.push(r.matches.map((m) => Number(m.id)));
  }
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    found,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    qps: texts.length / (ms.reduce((a, b) => a + b, 0) / 1000),
  };
}

interface TopTruth {
  /** Per query, its true 10 nearest (index, J), most similar first. */
  readonly nearest: { i: number; j: number }[][];
  /** Per query, the exact J of every document at J ≥ 0.2 (what a returned one scores). */
  readonly scores: Record<number, number>[];
}

function topTruth(indexed: Int32Array[], queries: Int32Array[], self: (q: number) => number): TopTruth {
  const counts = commonCounts(indexed, queries);
  const scores: Record<number, number>[] = [];
  const nearest = counts.map((map, q) => {
    const all = [...map]
      .filter(([d]) => d !== self(q))
      .map(([d, c]) => ({ i: d, j: c / (queries[q].length + indexed[d].length - c) }));
    scores.push(Object.fromEntries(all.filter((x) => x.j >= 0.2).map((x) => [x.i, x.j])));
    return all.sort((a, b) => b.j - a.j || a.i - b.i).slice(0, 10);
  });
  return { nearest, scores };
}

/**
 * Of each query's true K nearest at J ≥ floor, the share returned among its
 * first K — ties counted as either: a true one is matched by a returned one
 * of the same exact Jaccard (the i-th best true by the best unmatched returned).
 */
export function recallAt(
  truth: TopTruth,
  found: readonly (readonly number[])[],
  k: number,
  floor: number,
): { recall: number; wanted: number } {
  let wanted = 0;
  let hit = 0;
  truth.nearest.forEach((row, q) => {
    const got = found[q]
      .slice(0, k)
      .map((i) => truth.scores[q][i] ?? 0)
      .sort((a, b) => b - a);
    let g = 0;
    for (const x of row.slice(0, k)) {
      if (x.j < floor) continue;
      wanted++;
      while (g < got.length && got[g] > x.j + 1e-12) g++; // better than the truth cannot be: only rounding
      if (g < got.length && Math.abs(got[g] - x.j) <= 1e-12) {
        hit++;
        g++;
      }
    }
  });
  return { recall: wanted === 0 ? 1 : hit / wanted, wanted };
}

function sampleTexts(): string[] {
  const path = fileURLToPath(new URL('../../data/sample.jsonl.gz', import.meta.url));
  return gunzipSync(readFileSync(path))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { text: string }).text);
}

function printTopTable(name: string, truth: TopTruth, found: readonly (readonly number[])[]): void {
  console.log(
    `| ${name} | floor | recall@1 | recall@5 | recall@10 | pairs wanted @10 |\n| --- | --: | --: | --: | --: | --: |`,
  );
  for (const floor of [0.5, 0.3]) {
    const at = (k: number) => recallAt(truth, found, k, floor);
    console.log(
      `| | ${floor} | ${at(1).recall.toFixed(4)} | ${at(5).recall.toFixed(4)} | ${at(10).recall.toFixed(4)} | ${at(10).wanted} |`,
    );
  }
}

async function top(): Promise<void> {
  const sample = argv.includes('--sample');
  const generator = new Generator(licenceWords(), 1);
  const documents = Number(option('--documents', '100000'));
  const queryCount = Number(option('--queries', '1000'));
  const texts = sample ? sampleTexts() : Array.from({ length: documents }, (_, i) => generator.document(i).text);
  const queries = sample ? texts : Array.from({ length: queryCount }, (_, q) => generator.document(documents + q).text);
  const self = (q: number): number => (sample ? q : -1);
  console.log(
    `top-K: ${texts.length} documents, ${queries.length} queries${sample ? ' (each itself left out)' : ''}; load average ${load()}`,
  );
  const { index, seconds } = await indexOf(texts);
  console.log(`indexed in ${seconds.toFixed(1)} s`);
  let t = performance.now();
  const a = await signAll(texts);
  const b = sample ? a : await signAll(queries);
  const dense = denseSets([...a.sets, ...b.sets]);
  const truth = topTruth(dense.slice(0, texts.length), dense.slice(texts.length), self);
  console.log(`brute force in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  await index.query([queries[0]], { top: 10 }); // the forests' build
  console.log(`forests built in ${((performance.now() - t) / 1000).toFixed(2)} s`);
  for (const rerank of ['exact', 'estimate'] as const) {
    const run = await timedQueries(index, queries, { top: sample ? 11 : 10, rerank });
    const found = run.found.map((ids, q) => ids.filter((i) => i !== self(q)).slice(0, 10));
    console.log(
      `\nrerank ${rerank}: p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms, ${run.qps.toFixed(0)} queries/s (one thread); load ${load()}`,
    );
    printTopTable(`gpudedup forest, rerank ${rerank}`, truth, found);
  }
  if (argv.includes('--datasketch'))
    datasketch('top', a, b, { truth: truth.nearest, scores: truth.scores, self: sample });
}

/** Hosts of 1–20 k words with one planted item each; the items asked (a third edited). */
function plantedHosts(hosts: number): { hosts: string[]; items: string[] } {
  const words = licenceWords();
  let seed = 12345;
  const random = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const run = (length: number): string[] => {
    const out: string[] = [];
    while (out.length < length) {
      const start = Math.floor(random() * (words.length - 40));
      for (let i = 0; i < 8 + Math.floor(random() * 33) && out.length < length; i++) out.push(words[start + i]);
    }
    return out;
  };
  const texts: string[] = [];
  const items: string[] = [];
  for (let h = 0; h < hosts; h++) {
    const host = run(1000 + Math.floor(random() ** 2 * 19_000));
    const item = run(20 + Math.floor(random() * 181));
    host.splice(Math.floor(random() * host.length), 0, ...item);
    texts.push(host.join(' '));
    items.push(
      (h % 3 === 2 ? item.map((w) => (random() < 0.1 ? words[Math.floor(random() * words.length)] : w)) : item).join(
        ' ',
      ),
    );
  }
  return { hosts: texts, items };
}

async function containment(): Promise<void> {
  const c = Number(option('--containment', '0.8'));
  const { hosts, items } = plantedHosts(Number(option('--hosts', '1000')));
  console.log(
    `containment ≥ ${c}: ${hosts.length} hosts (${(hosts.reduce((n, h) => n + h.split(' ').length, 0) / 1e6).toFixed(1)} M words), ${items.length} items asked; load average ${load()}`,
  );
  const { index, seconds } = await indexOf(hosts);
  console.log(`indexed in ${seconds.toFixed(1)} s`);
  const a = await signAll(hosts);
  const b = await signAll(items);
  const dense = denseSets([...a.sets, ...b.sets]);
  const counts = commonCounts(dense.slice(0, hosts.length), dense.slice(hosts.length));
  const truth = counts.map((map, q) =>
    [...map].filter(([, n]) => n / dense[hosts.length + q].length >= c).map(([d]) => d),
  );
  await index.query([items[0]], { containment: c });
  const run = await timedQueries(index, items, { containment: c });
  const bySize: Record<string, { wanted: number; hit: number }> = {};
  let wrong = 0;
  truth.forEach((want, q) => {
    const got = new Set(run.found[q]);
    const words = items[q].split(' ').length;
    const bucket = words < 50 ? '20–49 words' : words < 100 ? '50–99 words' : '100–200 words';
    const b = (bySize[bucket] ??= { wanted: 0, hit: 0 });
    for (const d of want) {
      b.wanted++;
      if (got.has(d)) b.hit++;
    }
    for (const d of got) if (!want.includes(d)) wrong++;
  });
  const all = Object.values(bySize).reduce((a, b) => ({ wanted: a.wanted + b.wanted, hit: a.hit + b.hit }), {
    wanted: 0,
    hit: 0,
  });
  const returned = run.found.reduce((n, f) => n + f.length, 0);
  console.log(
    `p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms, ${run.qps.toFixed(0)} queries/s; load ${load()}`,
  );
  console.log(`| items | pairs at C ≥ ${c} | recall |\n| --- | --: | --: |`);
  for (const [bucket, b] of Object.entries(bySize))
    console.log(`| ${bucket} | ${b.wanted} | ${(b.hit / b.wanted).toFixed(4)} |`);
  console.log(`| all | ${all.wanted} | ${(all.hit / all.wanted).toFixed(4)} |`);
  console.log(
    `precision: ${returned === 0 ? 1 : ((returned - wrong) / returned).toFixed(4)} (${wrong} of ${returned} returned below C)`,
  );
  if (argv.includes('--datasketch')) datasketch('containment', a, b, { truth, c });
}

/**
 * bench/datasketchQueries.py on the same signatures (ours, given to
 * datasketch's MinHash as its hash values: the structures are compared, not
 * the hashing; rows of 128 64-bit slots, indexed then queries, little-endian)
 * and truth: its lines printed as they are.
 */
function datasketch(mode: string, a: Signed, b: Signed, extra: object): void {
  const dir = mkdtempSync(join(tmpdir(), 'ds-queries-'));
  writeFileSync(
    join(dir, 'signatures.bin'),
    Buffer.concat([...a.words, ...b.words].map((w) => Buffer.from(w.buffer, w.byteOffset, w.byteLength))),
  );
  writeFileSync(
    join(dir, 'data.json'),
    JSON.stringify({
      mode,
      indexed: a.sizes.length,
      queries: b.sizes.length,
      k: parameters.k,
      sizes: a.sizes,
      querySizes: b.sizes,
      ...extra,
    }),
  );
  const script = fileURLToPath(new URL('../../bench/datasketchQueries.py', import.meta.url));
  console.log(execFileSync('python3', [script, join(dir, 'data.json')], { encoding: 'utf8', maxBuffer: 2 ** 26 }));
}

async function latency(): Promise<void> {
  const dir = option('--index', '');
  const documents = Number(option('--documents', '200000'));
  const count = Number(option('--queries', '1000'));
  const generator = new Generator(licenceWords(), 1);
  let seed = 99;
  const random = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const tops = Array.from({ length: count }, (_, q) => generator.document(documents + q).text);
  const items = Array.from({ length: count }, () => {
    const words = generator.document(Math.floor(random() * documents)).text.split(/\s+/);
    const length = Math.min(words.length, 20 + Math.floor(random() * 181));
    const at = Math.floor(random() * (words.length - length + 1));
    return words.slice(at, at + length).join(' ');
  });
  console.log(`latency: ${dir} (${documents} documents), ${count} queries each; load average ${load()}`);
  let t = performance.now();
  const reader = await openIndex(dir, { readOnly: true });
  console.log(
    `opened in ${(performance.now() - t).toFixed(0)} ms, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
  );
  for (const [name, texts, options] of [
    ['top 10', tops, { top: 10 }],
    ['containment 0.8', items, { containment: 0.8 }],
  ] as const) {
    t = performance.now();
    await reader.query([texts[0]], options);
    console.log(
      `${name}: first query (builds) ${((performance.now() - t) / 1000).toFixed(2)} s, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
    );
    const ms: number[] = [];
    const cpu: number[] = [];
    let matched = 0;
    for (const text of texts) {
      const c = process.cpuUsage();
      const s = performance.now();
      const [r] = await reader.query([text], options);
      ms.push(performance.now() - s);
      const d = process.cpuUsage(c);
      cpu.push((d.user + d.system) / 1000);
      if (r.matches.length > 0) matched++;
    }
    ms.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    const at = (p: number) => `wall ${percentile(ms, p).toFixed(2)} ms, CPU ${percentile(cpu, p).toFixed(2)} ms`;
    console.log(`${name}: p50 ${at(0.5)}; p99 ${at(0.99)}; ${matched}/${texts.length} with matches; load ${load()}`);
  }
  console.log(`rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
  await reader.close();
}

if (argv[0] === 'top') await top();
else if (argv[0] === 'latency') await latency();
else if (argv[0] === 'containment') await containment();
else throw new Error('usage: topContainment.bench.js top|containment …');
process.exit(0);
