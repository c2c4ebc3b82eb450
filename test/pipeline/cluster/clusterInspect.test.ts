/**
 * `cluster --report`, `--audit`, `--audit-file`, through the built CLI on
 * shards of the sample: the report's counts equal dedup's report of the same
 * corpus, the audit's populations (pairs per bin, removed documents) equal
 * dedup's audit's, and every sampled item is what it claims: its exact
 * Jaccard equals exactJaccard of the two texts' shingle sets, a pair is one
 * dedup verified, a removed document is removed in dedup's clusters with the
 * kept document named. The sample is the same on 2 shards and on 4 range
 * shards, and moves with the seed (Spark's equals DuckDB's: the Spark test of
 * test/engines/cluster.test.ts, which runs its job with the inspection).
 * The sample's hash is checked against BigInt arithmetic on DuckDB, at the
 * largest positions, where an overflow would show.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, runCliHere } from '../../support/cli.js';
import { shingleDocument } from '../../../src/shingles/shingles.js';
import { makeParams, shingleOptionsOf } from '../../../src/signatures/params.js';
import { exactJaccard } from '../../../src/verify/verification.js';
import { auditBin } from '../../../src/audit/audit.js';
import { openDuckDb } from '../../../src/engines/duckdb.js';
import { sampleKeySql } from '../../../src/engines/inspectSql.js';
import { estimateOf, inspectOptionsFor } from '../../../src/pipeline/cluster/clusterInspect.js';
import type { ShardMeta } from '../../../src/formats/shards/shardFile.js';
import { readShardMeta } from '../../../src/formats/shards/shardSet.js';

const dir = tempDir();
const SAMPLE = join(dir, 'sample.jsonl');
const shardsOf = (name: string, n: number): string[] =>
  Array.from({ length: n }, (_, i) => join(dir, `${name}-${i + 1}-of-${n}.parquet`));

async function cli(args: string[]): Promise<string> {
  const result = await runCliHere(args);
  if (result.code !== 0) throw new Error(`gpudedup ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}

const sign = (shards: string[], extra: string[] = []): Promise<string>[] =>
  shards.map((out, i) =>
    cli([
      'sign',
      SAMPLE,
      '--shard',
      `${i + 1}/${shards.length}`,
      '-o',
      out,
      '--backend',
      'cpu',
      '--threads',
      '1',
      '-q',
      // --audit measures the lists (an uncompressed input's shards would store text ranges instead).
      '--shard-lists',
      ...extra,
    ]),
  );

interface AuditRow {
  kind: string;
  bin: string;
  id: string;
  other_id: string;
  estimate: string;
  exact: string;
}

function csvRows(path: string): AuditRow[] {
  const [head, ...lines] = readFileSync(path, 'utf8').trim().split('\n');
  const names = head.split(',');
  // The sample's ids have no commas or quotes.
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [names[i], v])) as unknown as AuditRow);
}

let runs = 0;
async function clusterAudit(
  shards: string[],
  extra: string[] = [],
): Promise<{ report: Record<string, any>; audit: string; stdout: string }> {
  const name = `run${++runs}`;
  const [report, audit] = [join(dir, `${name}.json`), join(dir, `${name}.csv`)];
  const stdout = await cli([
    'cluster',
    ...shards,
    '--audit',
    '25',
    '--report',
    report,
    '--audit-file',
    audit,
    ...extra,
  ]);
  return { report: JSON.parse(readFileSync(report, 'utf8')), audit: readFileSync(audit, 'utf8'), stdout };
}

const dedup = {
  report: {} as Record<string, any>,
  clusters: new Map<string, { cluster: string; kept: boolean }>(),
  pairs: new Set<string>(),
  texts: new Map<string, string>(),
};

beforeAll(async () => {
  writeFileSync(SAMPLE, gunzipSync(readFileSync('data/sample.jsonl.gz')));
  for (const line of readFileSync(SAMPLE, 'utf8').trim().split('\n')) {
    const doc = JSON.parse(line) as { id: string; text: string };
    dedup.texts.set(doc.id, doc.text);
  }
  await Promise.all([...sign(shardsOf('sample', 2)), ...sign(shardsOf('estimate', 2), ['--verify', 'estimate'])]);
  await Promise.all(sign(shardsOf('ranges', 4)));
  const [report, clusters, pairs] = [join(dir, 'dedup.json'), join(dir, 'dedup.csv'), join(dir, 'pairs.csv')];
  await cli([
    'dedup',
    SAMPLE,
    '--backend',
    'cpu',
    '--audit',
    '25',
    '--report',
    report,
    '--clusters',
    clusters,
    '--pairs',
    pairs,
    '-q',
  ]);
  dedup.report = JSON.parse(readFileSync(report, 'utf8'));
  for (const line of readFileSync(clusters, 'utf8').trim().split('\n').slice(1)) {
    const [id, cluster, kept] = line.split(',');
    dedup.clusters.set(id, { cluster, kept: kept === 'true' });
  }
  for (const line of readFileSync(pairs, 'utf8').trim().split('\n').slice(1)) {
    const [a, b] = line.split(',');
    dedup.pairs.add(`${a} ${b}`);
  }
}, 300_000);

describe('cluster --report and --audit', () => {
  let two: Awaited<ReturnType<typeof clusterAudit>>;
  beforeAll(async () => {
    two = await clusterAudit(shardsOf('sample', 2));
  }, 120_000);

  it("reports dedup's counts and the audit's populations", () => {
    const r = two.report;
    expect(r.format).toBe('gpudedup-cluster-report');
    for (const key of [
      'documents',
      'empty',
      'exactDuplicates',
      'distinctTexts',
      'clusters',
      'nearDuplicateClusters',
      'contaminated',
      'removed',
      'kept',
      'parameters',
    ]) {
      expect(r[key], key).toEqual(dedup.report[key]);
    }
    for (const key of ['pairs', 'verified', 'largestBucket'])
      expect(r.candidates[key], key).toBe(dedup.report.candidates[key]);
    const populations = (report: Record<string, any>) => ({
      bins: report.audit.bins.map((b: any) => [b.from, b.pairs]),
      removed: report.audit.removed.population,
    });
    expect(populations(r)).toEqual(populations(dedup.report));
    expect(r.audit.removed.population).toBeGreaterThan(25);
    expect(two.stdout).toMatch(/audit precision +\d/);
  });

  it('samples decided items whose exact Jaccard is measured right', () => {
    const rows = csvRows(join(dir, 'run1.csv'));
    const shingle = shingleOptionsOf(makeParams());
    const setOf = (id: string) => shingleDocument(dedup.texts.get(id)!, shingle);
    const pairs = rows.filter((r) => r.kind === 'pair');
    const removed = rows.filter((r) => r.kind === 'removed');
    expect(removed).toHaveLength(25);
    expect(pairs.length).toBe(two.report.audit.precision.sampled);
    for (const r of rows)
      expect(Number(r.exact), `${r.id} ${r.other_id}`).toBeCloseTo(exactJaccard(setOf(r.id), setOf(r.other_id)), 6);
    for (const p of pairs) {
      expect(dedup.pairs.has(`${p.id} ${p.other_id}`), `${p.id} ${p.other_id}`).toBe(true);
      expect(p.bin).toBe(['0-0.5', '0.5-0.6', '0.6-0.7', '0.7-0.8', '0.8-0.9', '0.9-1'][auditBin(Number(p.estimate))]);
    }
    for (const r of removed) {
      const [doc, kept] = [dedup.clusters.get(r.id)!, dedup.clusters.get(r.other_id)!];
      expect([doc.kept, kept.kept, doc.cluster === kept.cluster]).toEqual([false, true, true]);
      expect(setOf(r.id)).not.toEqual(setOf(r.other_id)); // near duplicates, not exact ones
    }
    // Ranks are distinct: no item twice.
    expect(new Set(rows.map((r) => `${r.kind} ${r.id} ${r.other_id}`)).size).toBe(rows.length);
  });

  it('draws the same sample from 4 range shards, and another with another seed', async () => {
    expect((await readShardMeta(shardsOf('ranges', 4)[3])).ranges).toBeDefined();
    const ranges = await clusterAudit(shardsOf('ranges', 4));
    expect(ranges.audit).toBe(two.audit);
    expect(ranges.report.audit).toEqual(two.report.audit);
    const seeded = await clusterAudit(shardsOf('sample', 2), ['--audit-seed', '7']);
    expect(seeded.report.audit.seed).toBe('7');
    expect(seeded.audit).not.toBe(two.audit);
    expect(seeded.report.audit.removed.population).toBe(two.report.audit.removed.population);
  }, 240_000);

  it('refuses --audit on shards without shingle sets, and --audit-file without --audit', async () => {
    const noSets = await runCliHere([
      'cluster',
      ...shardsOf('estimate', 2),
      '--verify',
      'estimate',
      '--audit',
      '5',
      '--report',
      join(dir, 'x.json'),
    ]);
    expect(noSets.code).toBe(1);
    expect(noSets.stderr).toMatch(
      /--audit measures exact Jaccard on the shingle lists, and .*estimate-1-of-2\.parquet has none/,
    );
    const noAudit = await runCliHere(['cluster', ...shardsOf('sample', 2), '--audit-file', join(dir, 'y.csv')]);
    expect(noAudit.code).toBe(1);
    expect(noAudit.stderr).toMatch(/--audit-file needs --audit N/);
  }, 60_000);
});

describe('the audit sample in SQL', () => {
  const P = 2147483647n;
  /** The hash of inspectSql.ts in BigInt. */
  function key(x: bigint, y: bigint | undefined, a: bigint, b: bigint): bigint {
    const h0 = ((x % P) * 48271n + (y === undefined ? 0n : y % P) + a) % P;
    const h1 = (h0 * h0 + b) % P;
    return (h1 * h1 + 1n) % P;
  }

  it('is the BigInt hash on DuckDB, without overflow at the largest positions and seeds', async () => {
    const { connection, close } = await openDuckDb();
    try {
      const cases: [bigint, bigint | undefined, number, number][] = [
        [0n, 0n, 0, 0],
        [2n ** 53n - 1n, 2n ** 53n - 2n, 2147483646, 2147483646],
        [3n * 2n ** 32n + 5n, undefined, 12345, 2147483646],
      ];
      let seed = 1;
      for (let i = 0; i < 40; i++) {
        seed = (seed * 48271) % 2147483647;
        cases.push([BigInt(seed) * 65537n, BigInt(seed % 100003), seed % 2147483647, (seed * 7) % 2147483647]);
      }
      for (const [x, y, a, b] of cases) {
        const sql = `SELECT ${sampleKeySql(`CAST(${x} AS BIGINT)`, y === undefined ? undefined : `CAST(${y} AS BIGINT)`, a, b)} AS k`;
        const [row] = await (await connection.runAndReadAll(sql)).getRowObjectsJS();
        expect(BigInt(row.k as bigint), `${x} ${y} ${a} ${b}`).toBe(key(x, y, BigInt(a), BigInt(b)));
      }
    } finally {
      close();
    }
  });

  it('bins by slot count exactly as auditBin bins the estimate, b-bit slots included', () => {
    for (const slotBits of [64, 32, 8, 2, 1] as const) {
      const meta = { params: { k: 128, slotBits, seed: '42' } } as unknown as ShardMeta;
      const { binFloors } = inspectOptionsFor(meta, { audit: 5 });
      for (let m = 0; m <= 128; m++) {
        const sqlBin = binFloors.reduce((bin, floor, h) => (h > 0 && m >= floor ? h : bin), 0);
        expect(sqlBin, `${slotBits} bits, ${m} slots`).toBe(auditBin(estimateOf(m, 128, slotBits)));
      }
    }
  });
});
