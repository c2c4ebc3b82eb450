/**
 * `gpudedup sign --shard` + `gpudedup cluster` against `gpudedup dedup`,
 * through the CLI's command line (run in this process; two refusals as real
 * processes): with the defaults of both (hybrid verification, the
 * representative check), 1, 2 and 4 shards joined in DuckDB give dedup's
 * clusters file byte for byte, and `dedup --clusters-from` its kept documents
 * (Spark: clusterSpark.test.ts, a file of its own so that the two run side by
 * side). On a corpus of
 * sliding-window chains, which the representative check splits over several
 * rounds, the other settings: --chain-delta, --max-representatives, exact,
 * estimate, none, --keep longest with big buckets.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { readShardMeta } from '../../src/formats/shards/shardSet.js';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliHere, tempDir } from '../support/cli.js';
import { shingleDocument } from '../../src/shingles/shingles.js';
import { makeParams, shingleOptionsOf } from '../../src/signatures/params.js';
import { setValues } from '../../src/formats/shards/shardFile.js';
import { openDuckDb, runDuckDb } from '../../src/engines/duckdb.js';
import { statementsOf, type ClusterPlan } from '../../src/engines/clusterSql.js';
import { planFor } from '../../src/pipeline/cluster/cluster.js';

const SAMPLE = 'data/sample.jsonl.gz';
const dir = tempDir();
const CHAINS = join(dir, 'chains.jsonl');
const REFERENCE = join(dir, 'reference.jsonl');

/** A reference set: every 17th sample document with 0 to 20 words replaced, a repeat and an empty one. */
function referenceSet(): string {
  const docs = gunzipSync(readFileSync(SAMPLE))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { text: string });
  const refs = docs
    .filter((_, i) => i % 17 === 0)
    .map((d, i) => {
      const words = d.text.split(/\s+/);
      for (let e = 0; e < [0, 1, 3, 8, 20][i % 5]; e++) words[(e * 7919 + i) % words.length] = `zzz${e}`;
      return { id: `ref${i}`, text: words.join(' ') };
    });
  refs.push({ id: 'ref-repeat', text: refs[1].text }, { id: 'ref-empty', text: '' });
  return refs.map((d) => JSON.stringify(d)).join('\n') + '\n';
}
const shardsOf = (name: string, n: number): string[] =>
  Array.from({ length: n }, (_, i) => join(dir, `${name}-${i + 1}-of-${n}.parquet`));

/**
 * A command run in this process (runCliHere): the ~90 runs here would each pay a process's start-up and module
 * loading, about 0.6 CPU-second. The refusals of a missing shard and of another corpus's clusters run the built CLI
 * as real processes, with their exit statuses.
 */
async function cli(args: string[]): Promise<string> {
  const result = await runCliHere(args);
  if (result.code !== 0) throw new Error(`gpudedup ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}

/** Documents that are windows sliding along 30 random texts (with a few edits), plus unrelated ones, an exact duplicate and an empty one. */
function chainCorpus(): string {
  let seed = 7;
  const random = (): number => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const vocab = Array.from({ length: 5000 }, () =>
    Array.from({ length: 3 + Math.floor(random() * 7) }, () => pick('abcdefghijklmnopqrstuvwxyz'.split(''))).join(''),
  );
  const docs: { id: string; text: string }[] = [];
  for (let c = 0; c < 30; c++) {
    const base = Array.from({ length: 3000 }, () => pick(vocab));
    const [shift, length, count] = [pick([1, 2, 3, 4, 5]), pick([60, 100, 150]), 5 + Math.floor(random() * 55)];
    for (let i = 0; i < count; i++) {
      const words = base.slice(i * shift, i * shift + length);
      for (let e = Math.floor(random() * 4); e > 0; e--) words[Math.floor(random() * words.length)] = pick(vocab);
      docs.push({ id: `c${c}-${i}`, text: words.join(' ') });
    }
  }
  for (let r = 0; r < 300; r++)
    docs.push({ id: `r${r}`, text: Array.from({ length: 80 }, () => pick(vocab)).join(' ') });
  docs.push({ id: 'dup', text: docs[5].text.toUpperCase() }, { id: 'empty', text: '' });
  for (let i = docs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [docs[i], docs[j]] = [docs[j], docs[i]];
  }
  // A keep score for --keep field:score: a number, a numeric string, or none.
  const scored = docs.map((d, i) =>
    i % 5 === 0 ? d : { ...d, score: i % 7 === 0 ? String((i * 37) % 101) : (i * 37) % 101 },
  );
  return scored.map((d) => JSON.stringify(d)).join('\n') + '\n';
}

/** Signs `input` into `shards`, one after the other (runs in this process share its standard output). */
async function sign(input: string, shards: string[], extra: string[] = []): Promise<void> {
  for (const [i, out] of shards.entries())
    await cli([
      'sign',
      input,
      '--shard',
      `${i + 1}/${shards.length}`,
      '-o',
      out,
      '--backend',
      'cpu',
      '--threads',
      '1',
      '-q',
      ...extra,
    ]);
}

beforeAll(async () => {
  writeFileSync(CHAINS, chainCorpus());
  writeFileSync(REFERENCE, referenceSet());
  for (const n of [1, 2, 4]) await sign(SAMPLE, shardsOf('sample', n));
  await sign(CHAINS, shardsOf('chains', 2));
  await sign(CHAINS, shardsOf('chains-lists', 2), ['--shard-lists']);
  await sign(SAMPLE, shardsOf('estimate', 2), ['--verify', 'estimate']);
  await sign(CHAINS, shardsOf('scored', 2), ['--keep', 'field:score']);
  await sign(REFERENCE, shardsOf('reference', 1), ['--shard-lists']);
  await sign(REFERENCE, shardsOf('reference-estimate', 1), ['--verify', 'estimate']);
}, 600_000);

interface Expected {
  readonly clusters: string;
  readonly kept: string;
  readonly stdout: string;
}

const expectedRuns = new Map<string, Promise<Expected>>();

/** dedup's clusters and kept documents with these options (once per corpus and options). */
function expected(input: string, options: string[]): Promise<Expected> {
  const key = [input, ...options].join(' ');
  if (!expectedRuns.has(key)) {
    const name = `dedup-${expectedRuns.size}`;
    const [clusters, kept] = [join(dir, `${name}.csv`), join(dir, `${name}.jsonl`)];
    expectedRuns.set(
      key,
      cli(['dedup', input, '--backend', 'cpu', '--threads', '1', ...options, '--clusters', clusters, '-o', kept]).then(
        (stdout) => ({
          clusters: readFileSync(clusters, 'utf8'),
          kept: readFileSync(kept, 'utf8'),
          stdout,
        }),
      ),
    );
  }
  return expectedRuns.get(key)!;
}

/** The removal list dedup's clusters file implies: ids of the rows kept = false, in order. */
function removedOf(clusters: string): string {
  const ids = clusters
    .trim()
    .split('\n')
    .slice(1)
    .filter((line) => line.endsWith(',false'))
    .map((line) => line.slice(0, line.lastIndexOf(',', line.length - 7)));
  return ['id', ...ids].join('\n') + '\n';
}

let runs = 0;

/**
 * `dedup INPUT --clusters-from CLUSTERS`'s kept documents, run once per input and clusters file's bytes: many runs
 * here give the same clusters (a variant on shards with and without lists, the sample in 1, 2 or 4 shards), and what
 * --clusters-from keeps is a function of those two alone.
 */
const keptRuns = new Map<string, Promise<string>>();
function keptFrom(input: string, clusters: string, kept: string): Promise<string> {
  const key = `${input}\0${readFileSync(clusters, 'utf8')}`;
  if (!keptRuns.has(key))
    keptRuns.set(
      key,
      cli(['dedup', input, '--clusters-from', clusters, '-o', kept, '-q']).then(() => readFileSync(kept, 'utf8')),
    );
  return keptRuns.get(key)!;
}

/** Clusters `shards` with `options` and checks clusters, removal list and kept documents against dedup's. */
async function checkAgainstDedup(
  input: string,
  shards: string[],
  engine: string,
  options: string[],
  dedupOptions: string[] = options,
): Promise<string> {
  const want = await expected(input, dedupOptions);
  const name = `${engine}-${shards.length}-run${++runs}`;
  const [clusters, removed, kept] = [
    join(dir, `${name}.csv`),
    join(dir, `${name}-removed.csv`),
    join(dir, `${name}.jsonl`),
  ];
  const stdout = await cli([
    'cluster',
    ...shards,
    '--engine',
    engine,
    ...options,
    '--clusters',
    clusters,
    '--removed',
    removed,
  ]);
  expect(readFileSync(clusters, 'utf8')).toBe(want.clusters);
  expect(readFileSync(removed, 'utf8')).toBe(removedOf(want.clusters));
  expect(await keptFrom(input, clusters, kept)).toBe(want.kept);
  // The same candidate and verified counts as dedup's summary.
  const candidates = /candidates\s+([\d,]+) pairs, ([\d,]+) verified; largest bucket (\d+)/;
  expect(stdout.match(candidates)?.slice(1)).toEqual(want.stdout.match(candidates)?.slice(1));
  return want.stdout;
}

describe('sign --shard + cluster with the defaults equal dedup with its defaults (DuckDB)', () => {
  it.each([1, 2, 4])(
    'on the sample in %i shard(s)',
    async (n) => {
      const dedupStdout = await checkAgainstDedup(SAMPLE, shardsOf('sample', n), 'duckdb', []);
      expect(dedupStdout).toMatch(/removed\s+1\d\d/); // a real amount of deduplication to compare
      expect(dedupStdout).toMatch(/by exact Jaccard [1-9]/); // hybrid measured pairs inside its margin
      expect(dedupStdout).toMatch(/[1-9] split off by the representative check/);
    },
    300_000,
  );
});

describe('cluster settings equal dedup with the same settings (DuckDB, the chains corpus)', () => {
  // The chains shards store text ranges (an uncompressed JSON Lines input), chains-lists the shingle lists: both
  // decide as dedup does. The shards were banded for hybrid (recall 0.999 at t = 0.8): dedup gets the same bands.
  const bands = ['--bands', '18', '--rows', '5'];
  const variants = [
    [],
    ['--chain-delta', '0'],
    ['--chain-delta', '0', '--max-representatives', '1'],
    ['--verify', 'exact', '--chain-delta', '0.02'],
    ['--verify', 'estimate', '--chain-delta', '0.05'],
    ['--verify', 'none'],
    ['--cluster-check', 'none'],
    ['--keep', 'longest', '--max-bucket-pairs', '2', '--chain-delta', '0'],
  ];
  it.each(variants.map((options) => [options.join(' ') || 'the defaults', options] as const))(
    '%s',
    async (_, options) => {
      for (const name of ['chains', 'chains-lists']) {
        const dedupStdout = await checkAgainstDedup(CHAINS, shardsOf(name, 2), 'duckdb', options, [
          ...options,
          ...bands,
        ]);
        if (options.includes('--chain-delta') && options[1] === '0')
          expect(dedupStdout).toMatch(/\d\d split off by the representative check/);
        if (!options.includes('estimate') && !options.includes('none'))
          expect(dedupStdout).toMatch(/by exact Jaccard [1-9]/);
      }
    },
    300_000,
  );

  it('--keep field:NAME with the score the shards stored, and refused on shards without it', async () => {
    const options = ['--keep', 'field:score', '--chain-delta', '0'];
    const dedupStdout = await checkAgainstDedup(CHAINS, shardsOf('scored', 2), 'duckdb', options, [
      ...options,
      ...bands,
    ]);
    expect(dedupStdout).toMatch(/\d\d split off by the representative check/);
    const result = await runCliHere([
      'cluster',
      ...shardsOf('chains', 2),
      ...options,
      '--clusters',
      join(dir, 'refused.csv'),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /--keep field:score needs the shards signed with it, and .*chains-1-of-2\.parquet stores no score/,
    );
  }, 300_000);

  it('--verify estimate on shards signed for it (no shingle sets), and hybrid refuses them', async () => {
    const shards = shardsOf('estimate', 2);
    await checkAgainstDedup(SAMPLE, shards, 'duckdb', ['--verify', 'estimate', '--cluster-check', 'none']);
    const result = await runCliHere(['cluster', ...shards, '--clusters', join(dir, 'refused.csv')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--verify hybrid needs the shingle sets, and .*estimate-1-of-2\.parquet has none/);
  }, 300_000);
});

describe('cluster --against reference shards equals dedup --against (DuckDB, the sample)', () => {
  it.each(
    [[], ['--max-bucket-pairs', '2'], ['--verify', 'exact']].map((o) => [o.join(' ') || 'the defaults', o] as const),
  )(
    '%s',
    async (_, options) => {
      const shards = shardsOf('sample', 2);
      const dedupStdout = await checkAgainstDedup(
        SAMPLE,
        shards,
        'duckdb',
        [...options, '--against', shardsOf('reference', 1)[0]],
        [...options, '--bands', '18', '--rows', '5', '--against', REFERENCE],
      );
      expect(dedupStdout).toMatch(/contaminated\s+[1-9]\d+ /);
    },
    300_000,
  );

  it('refuses a reference signed otherwise, naming the difference', async () => {
    const result = await runCliHere([
      'cluster',
      ...shardsOf('sample', 2),
      '--against',
      shardsOf('reference-estimate', 1)[0],
      '--clusters',
      join(dir, 'refused.csv'),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /reference-estimate-1-of-1\.parquet does not match .*bands: 18 vs \d+.*shingle sets: lists vs none/,
    );
  });
});

/** The chains corpus's lines and their documents. */
const chainRecords = (): { line: string; doc: { id: string; text: string } }[] =>
  chainCorpus()
    .trim()
    .split('\n')
    .map((line) => ({ line, doc: JSON.parse(line) as { id: string; text: string } }));

describe('the shard file', () => {
  it("stores each document's shingle set as dedup measures it: its 64-bit values, once each", async () => {
    const texts = new Map(chainRecords().map(({ doc }) => [doc.id, doc.text]));
    const { connection, close } = await openDuckDb();
    try {
      const rows = await (
        await connection.runAndReadAll(`SELECT id, shingles FROM read_parquet('${shardsOf('chains-lists', 2)[1]}')`)
      ).getRowObjectsJS();
      expect(rows.length).toBeGreaterThan(500);
      const shingle = shingleOptionsOf(makeParams({}));
      for (const row of rows) {
        const want = setValues(shingleDocument(texts.get(String(row.id))!, shingle));
        expect(row.shingles).toEqual(want);
        expect(new Set(want).size).toBe(want.length);
      }
    } finally {
      close();
    }
  }, 60_000);
});

describe('shards with text ranges (v4)', () => {
  it("record where each document's JSON line lies: its bytes are the line and its end, and no list is stored", async () => {
    const lines = new Map(chainRecords().map(({ doc, line }) => [doc.id, line]));
    const corpus = readFileSync(CHAINS);
    for (const shard of shardsOf('chains', 2)) {
      const meta = await readShardMeta(shard);
      expect([meta.format, meta.sets]).toEqual(['gpudedup-shard/v4', false]);
      expect(meta.texts!.files).toEqual([{ path: CHAINS, size: corpus.length, mtimeMs: statSync(CHAINS).mtimeMs }]);
      const { connection, close } = await openDuckDb();
      try {
        const rows = await (await connection.runAndReadAll(`SELECT * FROM read_parquet('${shard}')`)).getRowObjectsJS();
        expect(rows.length).toBeGreaterThan(500);
        expect(Object.keys(rows[0])).not.toContain('shingles');
        for (const row of rows) {
          const [start, bytes] = [Number(row.text_start), Number(row.text_bytes)];
          // v4: the workers' range, the line's end included (the chains end every line with \n).
          expect([Number(row.text_file), corpus.toString('utf8', start, start + bytes)]).toEqual([
            0,
            `${lines.get(String(row.id))}\n`,
          ]);
        }
      } finally {
        close();
      }
    }
  }, 60_000);

  it('refuse Spark, --against, and an input changed since signing, each in one line', async () => {
    const copy = join(dir, 'chains-copy.jsonl');
    copyFileSync(CHAINS, copy);
    const shard = join(dir, 'copy.parquet');
    await cli(['sign', copy, '--shard', '1/1', '-o', shard, '--backend', 'cpu', '-q']);
    const clusters = ['--clusters', join(dir, 'refused.csv')];
    const stderrOf = async (args: string[]): Promise<string> => {
      const result = await runCliHere(['cluster', shard, ...args, ...clusters]);
      expect(result.code).toBe(1);
      return result.stderr.trim();
    };
    expect(await stderrOf(['--engine', 'spark'])).toMatch(
      /^gpudedup: --verify hybrid on Spark needs the shingle lists, and .*copy\.parquet stores where each text lies.*--shard-lists/,
    );
    expect(await stderrOf(['--against', shardsOf('reference', 1)[0]])).toMatch(
      /^gpudedup: --against needs the shingle lists/,
    );
    utimesSync(copy, new Date(), new Date(Date.now() + 5000));
    expect(await stderrOf([])).toMatch(/chains-copy\.jsonl changed since the shards were signed .*--shard-lists/);
    expect(
      (await runCliHere(['cluster', shard, '--verify', 'estimate', '--cluster-check', 'none', ...clusters])).code,
    ).toBe(0);
    rmSync(copy);
    expect(await stderrOf([])).toMatch(/chains-copy\.jsonl is missing/);
  }, 120_000);
});

describe('gpudedup cluster outputs and refusals', () => {
  it('writes Parquet clusters that --clusters-from applies like the CSV', async () => {
    const want = await expected(SAMPLE, []);
    const parquet = join(dir, 'clusters.parquet');
    await cli(['cluster', ...shardsOf('sample', 2), '--clusters', parquet, '-q']);
    const kept = join(dir, 'from-parquet.jsonl');
    await cli(['dedup', SAMPLE, '--clusters-from', parquet, '-o', kept, '-q']);
    expect(readFileSync(kept, 'utf8')).toBe(want.kept);
  }, 120_000);

  it('refuses a missing shard, naming it', async () => {
    const result = await runCli(['cluster', shardsOf('sample', 2)[0], '--clusters', join(dir, 'x.csv')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/missing shard 2\/2/);
  });

  it('refuses clusters of another corpus in --clusters-from', async () => {
    const clusters = join(dir, 'one.csv');
    await cli(['cluster', ...shardsOf('sample', 2), '--clusters', clusters, '-q']);
    const other = join(dir, 'other.jsonl');
    execFileSync('bash', ['-c', `gzip -dc ${SAMPLE} | tail -n +2 > ${other}`]);
    const result = await runCli(['dedup', other, '--clusters-from', clusters, '-o', join(dir, 'k.jsonl')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/one\.csv:2: id .* but corpus document 1 has id .*not this corpus's clusters/);
  }, 60_000);

  it('--emit-script writes a Python job that carries the plan unchanged', async () => {
    const job = join(dir, 'job.py');
    const shards = shardsOf('sample', 2);
    const stdout = await cli(['cluster', ...shards, '--emit-script', job, '--chain-delta', '0.05']);
    expect(stdout).toContain(`spark-submit ${job} --out OUT_DIR`);
    const text = readFileSync(job, 'utf8');
    const planText = /PLAN = json\.loads\(r'''([\s\S]*?)'''\)/.exec(text)![1];
    const { planFor } = await import('../../src/pipeline/cluster/cluster.js');
    const { plan } = await planFor({
      shards,
      engine: 'spark',
      maxBucketPairs: 16,
      keep: { kind: 'first' },
      chainDelta: 0.05,
    });
    expect(JSON.parse(planText)).toEqual(JSON.parse(JSON.stringify(plan)));
    execFileSync('python3', ['-m', 'py_compile', job]); // valid Python, without needing pyspark
  });
});

describe("Spark's exact pass (lists intersected in a pair's row), run on DuckDB", () => {
  /** Every document's row of a plan run on DuckDB. */
  async function rowsOf(plan: ClusterPlan, shards: string[], against?: string[]): Promise<string> {
    const run = await runDuckDb(plan, shards, { reference: against });
    try {
      const rows: string[] = [];
      for await (const chunk of run.rows()) for (const r of chunk) rows.push(`${r.id},${r.cluster},${r.kept}`);
      return rows.join('\n');
    } finally {
      await run.close();
    }
  }

  it.each([
    ['the sample against the reference', 'sample', 'reference', false],
    ['the chains in check rounds', 'chains-lists', undefined, true],
  ] as const)(
    'gives the join’s rows on %s, in every exact pass',
    async (_, corpus, reference, rounds) => {
      const shards = shardsOf(corpus, 2);
      const against = reference === undefined ? undefined : shardsOf(reference, 1);
      const settings = {
        shards,
        against,
        maxBucketPairs: 16,
        keep: { kind: 'first' } as const,
        ...(rounds ? { chainDelta: 0, maxRepresentatives: 1 } : {}),
      };
      const spark = (await planFor({ ...settings, engine: 'spark' })).plan;
      const duckdb = (await planFor({ ...settings, engine: 'duckdb' })).plan;
      const sql = (plan: ClusterPlan) =>
        [...statementsOf([...plan.setup, ...plan.program, ...plan.finish])].map((s) => s.sql).join('\n');
      expect(sql(spark)).toContain('array_intersect');
      expect(sql(spark)).not.toContain('explode(shingles)');
      expect(sql(duckdb)).not.toContain('array_intersect');
      expect(await rowsOf(spark, shards, against)).toBe(await rowsOf(duckdb, shards, against));
    },
    300_000,
  );
});
