/**
 * Quality of classic MinHash, count- and idf-weighted MinHash and SimHash (issue 41, item 4): pair-level precision,
 * recall and F1 against planted labels (bench/labelledCorpus.ts states the corpus and the labelling rule), each run
 * through the real pipeline (runDedup, CPU backend, signing included), with its time.
 *
 *   npm run bench:quality-weighted      (builds first; prints a Markdown table)
 *
 * Predicted pairs: two documents in the same output cluster (`assignment.cluster`, after the default hybrid
 * verification and representative check). A pair is a true positive when both are in the same label group.
 *
 * Operating points: the three MinHash weightings at the same thresholds t (0.4, 0.5, 0.65, 0.8; bands and rows by
 * `optimalParams` at the default recall at t), so each row compares them at one common threshold of its own
 * measure; SimHash at --max-hamming 3, 6, 9, 12 (its threshold is 1 − h / 64 of the angular similarity), with the
 * default --max-bucket-pairs and with it lifted. The best F1 of each method is marked, and a second table gives, at
 * each method's best, the share of each planted kind clustered with its base. Argument: bases (default 500).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEDUP_WEIGHTS, DEFAULT_RECALL_AT_THRESHOLD, optimalParams } from '../src/bands/lshParams.js';
import { simhashBands, simhashThreshold } from '../src/bands/simhashBands.js';
import { runDedup, type DedupConfig } from '../src/pipeline/dedup/dedup.js';
import { prepareIdfTable } from '../src/pipeline/shared/idfPass.js';
import { makeParams, type SignatureParams } from '../src/signatures/params.js';
import { labelledCorpus, type LabelledDocument } from './labelledCorpus.js';

const THRESHOLDS = [0.4, 0.5, 0.65, 0.8];
const MAX_HAMMING = [3, 6, 9, 12];

interface Point {
  readonly method: string;
  readonly point: string;
  readonly params: SignatureParams;
  readonly threshold: number;
  readonly lsh: { readonly bands: number; readonly rows: number };
  /** Seconds spent before the run (the idf counting pass), added to its wall time. */
  readonly before: number;
  /** --max-bucket-pairs, where not the default 16. */
  readonly maxBucketPairs?: number;
}

interface Scored {
  readonly point: Point;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
  readonly predictedPairs: number;
  readonly seconds: number;
  readonly stages: string;
  /** By planted kind: the share clustered with their base (for bases: with another base). */
  readonly kinds: Map<string, number>;
}

const pairs = (n: number): number => (n * (n - 1)) / 2;

/** Pair counts from the contingency of predicted clusters and label groups. */
function score(cluster: ArrayLike<number>, docs: readonly LabelledDocument[]) {
  const predicted = new Map<number, number>();
  const truth = new Map<number, number>();
  const both = new Map<string, number>();
  for (let d = 0; d < docs.length; d++) {
    const c = cluster[d];
    const g = docs[d].group;
    predicted.set(c, (predicted.get(c) ?? 0) + 1);
    truth.set(g, (truth.get(g) ?? 0) + 1);
    both.set(`${c}:${g}`, (both.get(`${c}:${g}`) ?? 0) + 1);
  }
  const sum = (m: Map<unknown, number>): number => [...m.values()].reduce((s, n) => s + pairs(n), 0);
  const tp = sum(both);
  const predictedPairs = sum(predicted);
  const truePairs = sum(truth);
  const precision = predictedPairs === 0 ? 1 : tp / predictedPairs;
  const recall = tp / truePairs;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, predictedPairs, truePairs };
}

/** Per planted kind, the share of documents in their base's cluster; for bases, in another base's. */
function byKind(cluster: ArrayLike<number>, docs: readonly LabelledDocument[]): Map<string, number> {
  const basesIn = new Map<number, number>();
  docs.forEach((d, i) => {
    if (d.kind.startsWith('base') || d.kind === 'unrelated')
      basesIn.set(cluster[i], (basesIn.get(cluster[i]) ?? 0) + 1);
  });
  const hits = new Map<string, [number, number]>();
  docs.forEach((d, i) => {
    const alone = d.kind.startsWith('base') || d.kind === 'unrelated';
    const hit = alone ? basesIn.get(cluster[i])! > 1 : cluster[i] === cluster[d.base];
    const [h, n] = hits.get(d.kind) ?? [0, 0];
    hits.set(d.kind, [h + (hit ? 1 : 0), n + 1]);
  });
  return new Map([...hits].sort(([a], [b]) => a.localeCompare(b)).map(([k, [h, n]]) => [k, h / n]));
}

function kindTable(rows: readonly Scored[]): string[] {
  const best = new Map<string, Scored>();
  for (const r of rows) if ((best.get(r.point.method)?.f1 ?? -1) < r.f1) best.set(r.point.method, r);
  const chosen = [...best.values()];
  return [
    `| planted kind | ${chosen.map((r) => `${r.point.method}, ${r.point.point.split(' (')[0]}`).join(' | ')} |`,
    `| --- |${chosen.map(() => ' --- |').join('')}`,
    ...[...chosen[0].kinds.keys()].map(
      (kind) => `| ${kind} | ${chosen.map((r) => `${(100 * r.kinds.get(kind)!).toFixed(1)} %`).join(' | ')} |`,
    ),
  ];
}

function minhashPoints(method: string, params: SignatureParams, before: number): Point[] {
  return THRESHOLDS.map((threshold) => {
    const { bands, rows } = optimalParams(threshold, params.k, DEDUP_WEIGHTS, DEFAULT_RECALL_AT_THRESHOLD);
    return { method, point: `t = ${threshold}`, params, threshold, lsh: { bands, rows }, before };
  });
}

function simhashPoint(method: string, h: number, params: SignatureParams, maxBucketPairs?: number): Point {
  const point = `h = ${h} (1 − h/64 = ${simhashThreshold(h).toFixed(3)})`;
  return { method, point, params, threshold: simhashThreshold(h), lsh: simhashBands(h), before: 0, maxBucketPairs };
}

async function points(path: string): Promise<Point[]> {
  const classic = makeParams({});
  const shingling = {
    shingle: classic.shingle,
    n: classic.n,
    nfkc: classic.normalize.nfkc,
    stripPunctuation: classic.normalize.stripPunctuation,
  };
  const started = performance.now();
  const read = { textField: 'text', idField: 'id', skipInvalid: false };
  const table = await prepareIdfTable({ inputs: [path], read, shingling });
  const idfSeconds = (performance.now() - started) / 1000;
  const simhash = makeParams({ scheme: 'simhash' });
  return [
    ...minhashPoints('classic MinHash', classic, 0),
    ...minhashPoints('MinHash, --weights counts', makeParams({ weights: 'counts' }), 0),
    ...minhashPoints('MinHash, --weights idf', makeParams({ weights: 'idf', idf: table.identity }), idfSeconds),
    ...MAX_HAMMING.map((h) => simhashPoint('SimHash', h, simhash)),
    // Blocks of 4–9 bits make buckets of hundreds: past --max-bucket-pairs a bucket pairs each member with its
    // first only (bands/candidates.ts). All its pairs, as the block tables' guarantee assumes:
    ...MAX_HAMMING.slice(1).map((h) => simhashPoint('SimHash, --max-bucket-pairs 100000', h, simhash, 100_000)),
  ];
}

async function run(point: Point, path: string, docs: readonly LabelledDocument[]): Promise<Scored> {
  const config: DedupConfig = {
    inputs: [path],
    read: { textField: 'text', idField: 'id', skipInvalid: false },
    params: point.params,
    backend: 'cpu',
    threshold: point.threshold,
    lsh: point.lsh,
    verify: 'hybrid',
    clusterCheck: 'representative',
    keep: { kind: 'first' },
    against: [],
    ...(point.maxBucketPairs === undefined ? {} : { maxBucketPairs: point.maxBucketPairs }),
  };
  const t0 = performance.now();
  const outcome = await runDedup(config);
  const seconds = (performance.now() - t0) / 1000 + point.before;
  const stages = Object.entries(outcome.timings)
    .map(([name, ms]) => `${name} ${(ms / 1000).toFixed(2)}`)
    .join(', ');
  const { cluster } = outcome.assignment;
  return { point, ...score(cluster, docs), seconds, stages, kinds: byKind(cluster, docs) };
}

function table(rows: readonly Scored[]): string[] {
  const best = new Map<string, number>();
  for (const r of rows) best.set(r.point.method, Math.max(best.get(r.point.method) ?? 0, r.f1));
  const f = (x: number): string => x.toFixed(3);
  return [
    '| method | operating point | b × r | predicted pairs | precision | recall | F1 | wall (s) | stages (s) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => {
      const mark = r.f1 === best.get(r.point.method) ? '**' : '';
      return (
        `| ${r.point.method} | ${r.point.point} | ${r.point.lsh.bands} × ${r.point.lsh.rows} | ${r.predictedPairs} | ` +
        `${f(r.precision)} | ${f(r.recall)} | ${mark}${f(r.f1)}${mark} | ${r.seconds.toFixed(2)} | ${r.stages} |`
      );
    }),
  ];
}

async function main(): Promise<void> {
  const bases = Number(process.argv[2] ?? 500);
  const docs = labelledCorpus({ bases, unrelated: bases });
  const dir = mkdtempSync(join(tmpdir(), 'gpudedup-quality-weighted-'));
  const path = join(dir, 'labelled.jsonl');
  writeFileSync(path, docs.map((d) => JSON.stringify({ id: d.id, text: d.text })).join('\n') + '\n');
  const truePairs = score(
    docs.map((d) => d.group),
    docs,
  ).truePairs;
  const rows: Scored[] = [];
  for (const point of await points(path)) {
    rows.push(await run(point, path, docs));
    process.stderr.write(`${point.method} ${point.point}: ${rows.at(-1)!.seconds.toFixed(2)} s\n`);
  }
  const load = loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');
  process.stdout.write(
    [
      `${docs.length} documents (${bases} bases × 7, ${bases} unrelated), ${truePairs} true pairs; k = 128 ` +
        '(SimHash 64 bits), word 5-grams, CPU backend, hybrid verification + representative check, keep first; ' +
        `wall time includes signing (and idf's counting pass). Load average at the end: ${load}.`,
      '',
      ...table(rows),
      '',
      "At each method's best F1: the share of each planted kind clustered with its base (bases and unrelated " +
        'documents: clustered with another base, all false merges; far: labelled apart, so a false merge too).',
      '',
      ...kindTable(rows),
      '',
    ].join('\n'),
  );
}

await main();
