/**
 * Quality report of `gpudedup dedup` on the bundled real corpus (727 SPDX
 * licence texts): brute-force exact Jaccard of all 263,901 pairs of word
 * 5-gram sets is the truth, and every configuration below runs the real
 * pipeline (runDedup) on the corpus file, from one shared signing pass.
 *
 *   npm run bench:quality            (builds first; prints a Markdown report)
 *
 * Metrics, for threshold t:
 * - recall: of the pairs with true Jaccard ≥ t + 0.05, the share whose two
 *   documents end in the same cluster (what dedup promises), and the share
 *   found directly (same exact group, or a verified pair);
 * - false positives: verified pairs with true Jaccard < t, over all verified;
 * - purity: removed documents whose true Jaccard with their cluster's kept
 *   document is ≥ t, and same-cluster document pairs with Jaccard ≥ t.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEDUP_WEIGHTS, DEFAULT_WEIGHTS, candidateProbability, optimalParams } from '../src/bands/lshParams.js';
import { runDedup, type DedupConfig, type DedupOutcome } from '../src/pipeline/dedup.js';
import { shingleDocument } from '../src/shingles/shingles.js';
import { makeParams } from '../src/signatures/params.js';
import { loadSampleCorpus } from './corpus.js';

const CORPUS = 'data/sample.jsonl.gz';
const THRESHOLD = 0.8;
const K = 128;

/** Shingle sets as sorted arrays of dense ids, so that a pair's intersection is one merge. */
function denseSets(texts: readonly string[]): Int32Array[] {
  const ids = new Map<string, number>();
  return texts.map((text) => {
    const pairs = shingleDocument(text);
    const out = new Int32Array(pairs.length / 2);
    for (let i = 0; i < out.length; i++) {
      const key = `${pairs[2 * i + 1]}:${pairs[2 * i]}`;
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = ids.size));
      out[i] = id;
    }
    return out.sort();
  });
}

function jaccard(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  const union = a.length + b.length - common;
  return union === 0 ? 0 : common / union;
}

interface Truth {
  readonly n: number;
  /** Upper triangle, row-major: pair (a < b) at a·n + b. */
  readonly j: Float32Array;
}

function bruteForce(texts: readonly string[]): Truth {
  const sets = denseSets(texts);
  const n = texts.length;
  const j = new Float32Array(n * n);
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) j[a * n + b] = jaccard(sets[a], sets[b]);
  return { n, j };
}

const sim = (t: Truth, a: number, b: number): number => (a < b ? t.j[a * t.n + b] : t.j[b * t.n + a]);

interface Row {
  readonly name: string;
  readonly bands: number;
  readonly rows: number;
  readonly truthPairs: number;
  readonly predicted: number;
  readonly directRecall: number;
  readonly clusterRecall: number;
  readonly missed: string[];
  readonly verified: number;
  readonly falsePositives: number;
  readonly removed: number;
  readonly purityKept: number;
  readonly purityPairs: number;
  readonly seconds: number;
}

function evaluate(name: string, config: DedupConfig, outcome: DedupOutcome, truth: Truth, ids: readonly string[], seconds: number): Row {
  const { n } = truth;
  const { table, assignment, verified } = outcome;
  const firstDoc = new Int32Array(outcome.signatures.count).fill(-1);
  for (let d = 0; d < n; d++) if (table.group(d) >= 0 && firstDoc[table.group(d)] < 0) firstDoc[table.group(d)] = d;
  const verifiedSet = new Set<number>();
  let falsePositives = 0;
  for (let i = 0; i < verified.a.length; i++) {
    const a = firstDoc[verified.a[i]];
    const b = firstDoc[verified.b[i]];
    verifiedSet.add(verified.a[i] * n + verified.b[i]);
    if (sim(truth, a, b) < config.threshold) falsePositives++;
  }
  let truthPairs = 0;
  let predicted = 0;
  let direct = 0;
  let sameCluster = 0;
  const missed: string[] = [];
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const s = sim(truth, a, b);
      if (s < config.threshold + 0.05) continue;
      truthPairs++;
      const ga = table.group(a);
      const gb = table.group(b);
      // Identical normalized texts are always found (exact pre-pass); otherwise the S-curve decides.
      predicted += ga === gb ? 1 : candidateProbability(s, config.lsh.bands, config.lsh.rows);
      if (ga === gb || verifiedSet.has(Math.min(ga, gb) * n + Math.max(ga, gb))) direct++;
      if (assignment.cluster[a] === assignment.cluster[b]) sameCluster++;
      else missed.push(`${ids[a]} / ${ids[b]} (${s.toFixed(3)})`);
    }
  }
  const keptOf = new Map<number, number>();
  for (let d = 0; d < n; d++) if (assignment.kept[d] === 1) keptOf.set(assignment.cluster[d], d);
  let removed = 0;
  let pureRemoved = 0;
  const members = new Map<number, number[]>();
  for (let d = 0; d < n; d++) {
    const c = assignment.cluster[d];
    members.set(c, [...(members.get(c) ?? []), d]);
    if (assignment.kept[d] === 1) continue;
    removed++;
    if (sim(truth, d, keptOf.get(c)!) >= config.threshold) pureRemoved++;
  }
  let clusterPairs = 0;
  let purePairs = 0;
  for (const list of members.values()) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        clusterPairs++;
        if (sim(truth, list[i], list[j]) >= config.threshold) purePairs++;
      }
    }
  }
  return {
    name,
    bands: config.lsh.bands,
    rows: config.lsh.rows,
    truthPairs,
    predicted: predicted / truthPairs,
    directRecall: direct / truthPairs,
    clusterRecall: sameCluster / truthPairs,
    missed,
    verified: verified.a.length,
    falsePositives,
    removed,
    purityKept: removed === 0 ? 1 : pureRemoved / removed,
    purityPairs: clusterPairs === 0 ? 1 : purePairs / clusterPairs,
    seconds,
  };
}

async function main(): Promise<void> {
  const documents = loadSampleCorpus(CORPUS);
  const ids = documents.map((d) => d.id);
  let started = performance.now();
  const truth = bruteForce(documents.map((d) => d.text));
  const truthSeconds = (performance.now() - started) / 1000;

  const dir = mkdtempSync(join(tmpdir(), 'gpudedup-quality-'));
  const npy = join(dir, 'sample.npy');
  started = performance.now();
  // Through the command line, as a user would: `gpudedup sign`, then dedup --signatures.
  execFileSync(process.execPath, ['dist/src/cli/main.js', 'sign', CORPUS, '-o', npy, '-k', String(K), '--backend', 'cpu', '-q'], { stdio: 'ignore' });
  const signSeconds = (performance.now() - started) / 1000;

  const balanced = optimalParams(THRESHOLD, K, DEFAULT_WEIGHTS);
  const recallFirst = optimalParams(THRESHOLD, K, DEDUP_WEIGHTS);
  const base: DedupConfig = {
    inputs: [CORPUS],
    read: { textField: 'text', idField: 'id', skipInvalid: false },
    params: makeParams({ k: K }),
    backend: 'cpu',
    threshold: THRESHOLD,
    lsh: { bands: recallFirst.bands, rows: recallFirst.rows },
    verify: 'estimate',
    clusterCheck: 'none',
    keep: { kind: 'first' },
    against: [],
    signatures: npy,
  };
  const datasketch = { ...base, lsh: { bands: balanced.bands, rows: balanced.rows } };
  const configs: [string, DedupConfig][] = [
    ['defaults (weights fp 0.1 / fn 0.9, verify estimate)', base],
    ['defaults, verify exact', { ...base, verify: 'exact' }],
    ['defaults, verify exact, representative check', { ...base, verify: 'exact', clusterCheck: 'representative' }],
    ["datasketch's weights 0.5 / 0.5, verify estimate", datasketch],
    ["datasketch's weights, verify exact", { ...datasketch, verify: 'exact' }],
    ["datasketch's weights, verify exact, representative check", { ...datasketch, verify: 'exact', clusterCheck: 'representative' }],
  ];
  const rows: Row[] = [];
  for (const [name, config] of configs) {
    const t0 = performance.now();
    const outcome = await runDedup(config);
    rows.push(evaluate(name, config, outcome, truth, ids, (performance.now() - t0) / 1000));
  }

  const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
  const out: string[] = [];
  out.push(`Corpus \`${CORPUS}\`: ${documents.length} documents, ${((documents.length * (documents.length - 1)) / 2).toLocaleString('en-US')} pairs; ` +
    `truth by brute-force exact Jaccard of word 5-gram sets in ${truthSeconds.toFixed(1)} s. k = ${K}, seed 42, threshold t = ${THRESHOLD}; ` +
    `recall is measured on the ${rows[0].truthPairs} pairs with true Jaccard ≥ t + 0.05 = ${(THRESHOLD + 0.05).toFixed(2)}. ` +
    `Signed once on the CPU (${signSeconds.toFixed(1)} s), then each configuration runs \`runDedup\` on the corpus with \`--signatures\`.`);
  out.push('');
  out.push('| configuration | b × r | recall (same cluster) | recall (direct pair) | S-curve prediction (direct) | verified pairs | false positives (J < t) | removed | purity: removed vs kept ≥ t | purity: cluster pairs ≥ t | time |');
  out.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    out.push(
      `| ${r.name} | ${r.bands} × ${r.rows} | ${pct(r.clusterRecall)} | ${pct(r.directRecall)} | ${pct(r.predicted)} | ${r.verified} | ` +
        `${r.falsePositives} (${pct(r.verified === 0 ? 0 : r.falsePositives / r.verified)}) | ${r.removed} | ${pct(r.purityKept)} | ${pct(r.purityPairs)} | ${r.seconds.toFixed(2)} s |`,
    );
  }
  out.push('');
  for (const r of rows) if (r.missed.length > 0) out.push(`Missed by "${r.name}" (${r.missed.length}): ${r.missed.slice(0, 12).join('; ')}${r.missed.length > 12 ? '; …' : ''}`);
  process.stdout.write(out.join('\n') + '\n');
}

await main();
