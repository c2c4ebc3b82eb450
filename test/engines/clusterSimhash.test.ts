/**
 * `sign --shard --scheme simhash` + `cluster` (DuckDB) against `dedup --scheme simhash`, through the CLI's command
 * line (run in this process): the clusters file byte for byte and dedup's candidate and verified counts, on a corpus of planted near-duplicates
 * (word substitutions and sliding windows, which chain), with 1 and 3 shards, each verification, --max-hamming 3 and
 * 8, the cluster check's settings, --keep longest, --weights counts and --against; shards of another scheme or
 * weighting are refused together, and so are --threshold and --max-hamming where they do not apply. Spark (with
 * GPUDEDUP_SPARK=1, as clusterSpark.test.ts): the same at --max-hamming 8.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliHere, tempDir } from '../support/cli.js';
import { sparkWanted } from '../support/spark.js';

const dir = tempDir();
const CORPUS = join(dir, 'planted.jsonl');
const REFERENCE = join(dir, 'reference.jsonl');

function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** 30 bases of 1,000 words, each with 2 to 9 variants (0 to 7 words replaced, mostly few; windows shifted by 1), 150 unrelated. */
function planted(): { id: string; text: string }[] {
  const random = seeded(41);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const vocab = Array.from({ length: 4000 }, (_, i) => `w${i.toString(36)}${'xyz'[i % 3]}`);
  const docs: { id: string; text: string }[] = [];
  for (let b = 0; b < 30; b++) {
    const base = Array.from({ length: 1010 }, () => pick(vocab));
    for (let v = 0, n = 2 + Math.floor(random() * 8); v < n; v++) {
      const words = b % 3 === 0 ? base.slice(v, v + 1000) : base.slice(0, 1000);
      for (let e = Math.floor(random() ** 2 * 8); e > 0; e--) words[Math.floor(random() * words.length)] = pick(vocab);
      docs.push({ id: `b${b}-${v}`, text: words.join(' ') });
    }
  }
  for (let r = 0; r < 150; r++)
    docs.push({ id: `r${r}`, text: Array.from({ length: 120 }, () => pick(vocab)).join(' ') });
  docs.push({ id: 'dup', text: docs[3].text.toUpperCase() }, { id: 'empty', text: '' }, { id: 'short', text: 'a b' });
  for (let i = docs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [docs[i], docs[j]] = [docs[j], docs[i]];
  }
  return docs;
}

const jsonl = (docs: readonly object[]): string => docs.map((d) => JSON.stringify(d)).join('\n') + '\n';

/**
 * The command line run in this process (runCliHere), one command at a time: ~60 runs here, each of which would pay a
 * process's start-up and module loading (test/engines/cluster.test.ts keeps real processes for cluster's refusals).
 */
async function cli(args: string[]): Promise<string> {
  const result = await runCliHere(args);
  if (result.code !== 0) throw new Error(`gpudedup ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}

async function refused(args: string[]): Promise<string> {
  const result = await runCliHere(args);
  expect(result.code).not.toBe(0);
  return result.stderr;
}

const SIMHASH = ['--scheme', 'simhash', '--backend', 'cpu', '--threads', '1'];

/** Signs `input` into n shards named `name`, with `extra` flags; returns their paths. */
async function signShards(input: string, name: string, n: number, extra: string[] = []): Promise<string[]> {
  const paths = Array.from({ length: n }, (_, i) => join(dir, `${name}-${i + 1}-of-${n}.parquet`));
  for (const [i, out] of paths.entries())
    await cli(['sign', input, '--shard', `${i + 1}/${n}`, '-o', out, '-q', ...SIMHASH, ...extra]);
  return paths;
}

const candidates = /candidates\s+([\d,]+) pairs, ([\d,]+) verified; largest bucket (\d+)/;
let runs = 0;

/** dedup's and cluster's clusters files with these options, checked equal; returns dedup's summary. */
async function checkAgainstDedup(
  shards: string[],
  sign: string[],
  options: string[],
  against?: { input: string; shards: string[] },
  engine = 'duckdb',
): Promise<string> {
  const [want, got] = [join(dir, `dedup-${++runs}.csv`), join(dir, `cluster-${runs}.csv`)];
  const reference = against === undefined ? [] : ['--against', against.input];
  const stdout = await cli(['dedup', CORPUS, ...SIMHASH, ...sign, ...options, ...reference, '--clusters', want]);
  const clusterAgainst = against === undefined ? [] : ['--against', ...against.shards];
  const ours = await cli(['cluster', ...shards, '--engine', engine, ...options, ...clusterAgainst, '--clusters', got]);
  expect(readFileSync(got, 'utf8')).toBe(readFileSync(want, 'utf8'));
  expect(ours.match(candidates)?.slice(1)).toEqual(stdout.match(candidates)?.slice(1));
  return stdout;
}

/** Clusters of more than one document in a clusters file (id,cluster,kept). */
function joinedClusters(path: string): number {
  const sizes = new Map<string, number>();
  for (const line of readFileSync(path, 'utf8').trim().split('\n').slice(1)) {
    const cluster = line.split(',').at(-2)!;
    sizes.set(cluster, (sizes.get(cluster) ?? 0) + 1);
  }
  return [...sizes.values()].filter((n) => n > 1).length;
}

let h3: string[][];
let h8: string[];

beforeAll(async () => {
  const docs = planted();
  writeFileSync(CORPUS, jsonl(docs));
  // Every 9th document with its first word replaced, or none (then an exact match).
  const reference = docs
    .filter((_, i) => i % 9 === 0)
    .map((d, i) => ({ id: `ref${i}`, text: d.text.replace(/^\S+/, i % 2 ? 'zz' : '$&') }));
  writeFileSync(REFERENCE, jsonl(reference));
  h3 = [await signShards(CORPUS, 'h3', 1), await signShards(CORPUS, 'h3', 3)];
  // h3 stores text ranges, h8 shingle lists (which the Spark job needs).
  h8 = await signShards(CORPUS, 'h8', 2, ['--max-hamming', '8', '--shard-lists']);
}, 600_000);

describe('cluster on SimHash shards equals dedup --scheme simhash', () => {
  it('with the defaults (hybrid, the representative check), on 1 and 3 shards', async () => {
    for (const shards of h3) {
      const stdout = await checkAgainstDedup(shards, [], []);
      // Not a vacuous comparison: pairs verified, some inside the margin by the exact angle, several clusters.
      const [, verified] = stdout
        .match(candidates)!
        .slice(1)
        .map((n) => Number(n.replace(/,/g, '')));
      expect(verified).toBeGreaterThan(20);
      expect(stdout).toMatch(/by exact angle [1-9]\d* accepted/);
      expect(joinedClusters(join(dir, `dedup-${runs}.csv`))).toBeGreaterThan(10);
    }
  }, 300_000);

  it('at --max-hamming 8, with every verification and the cluster check settings', async () => {
    const sign = ['--max-hamming', '8'];
    for (const options of [
      [],
      ['--verify', 'exact'],
      ['--verify', 'estimate'],
      ['--verify', 'none'],
      ['--chain-delta', '0.01', '--max-representatives', '2'],
      ['--cluster-check', 'none', '--keep', 'longest'],
      ['--max-bucket-pairs', '2'],
    ])
      await checkAgainstDedup(h8, sign, options);
  }, 600_000);

  it('with --weights counts, and against a reference set', async () => {
    const counts = await signShards(CORPUS, 'counts', 2, ['--weights', 'counts']);
    await checkAgainstDedup(counts, ['--weights', 'counts'], []);
    const reference = await signShards(REFERENCE, 'reference', 1, ['--shard-lists']);
    // --against reads the lists of both sides.
    const listed = await signShards(CORPUS, 'h3-lists', 3, ['--shard-lists']);
    await checkAgainstDedup(listed, [], [], { input: REFERENCE, shards: reference });
  }, 600_000);
});

describe('cluster --engine spark on SimHash shards', () => {
  if (!sparkWanted()) it.skip('Spark: set GPUDEDUP_SPARK=1 to run it (about a minute here)', () => undefined);
  else
    it('equals dedup at --max-hamming 8 (popcount of XOR, the exact angle, the cluster check)', async () => {
      await checkAgainstDedup(h8, ['--max-hamming', '8'], [], undefined, 'spark');
    }, 600_000);
});

describe('SimHash shards refuse what does not apply', () => {
  it('mixing schemes or weightings, --threshold and --audit in cluster, --max-hamming elsewhere', async () => {
    const classic = join(dir, 'classic.parquet');
    await cli(['sign', CORPUS, '--shard', '2/3', '-o', classic, '-q', '--backend', 'cpu']);
    expect(await refused(['cluster', h3[1][0], classic, h3[1][2], '--clusters', join(dir, 'x.csv')])).toMatch(
      /does not match .*scheme/,
    );
    const plain = join(dir, 'plain-2-of-2.parquet');
    await cli(['sign', CORPUS, '--shard', '2/2', '-o', plain, '-q', ...SIMHASH]);
    expect(
      await refused(['cluster', join(dir, 'counts-1-of-2.parquet'), plain, '--clusters', join(dir, 'x.csv')]),
    ).toMatch(/does not match .*weights: counts vs none/);
    expect(await refused(['cluster', ...h3[0], '-t', '0.9', '--clusters', join(dir, 'x.csv')])).toMatch(
      /SimHash fingerprints, banded for --max-hamming 3/,
    );
    expect(await refused(['cluster', ...h3[0], '--audit', '10', '--audit-file', join(dir, 'a.csv')])).toMatch(
      /--audit measures exact Jaccard/,
    );
    const out = join(dir, 'y.parquet');
    expect(await refused(['sign', CORPUS, '--shard', '1/1', '-o', out, '--max-hamming', '4'])).toMatch(
      /--max-hamming applies to --scheme simhash only/,
    );
    expect(await refused(['sign', CORPUS, '-o', join(dir, 'y.npy'), ...SIMHASH, '--max-hamming', '4'])).toMatch(
      /--max-hamming applies to sign --shard/,
    );
    expect(await refused(['sign', CORPUS, '--shard', '1/1', '-o', out, ...SIMHASH, '-t', '0.9'])).toMatch(
      /bands by --max-hamming, not --threshold/,
    );
  }, 300_000);
});
