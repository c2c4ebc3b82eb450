/**
 * What `cluster --report`, `--report-html` and `--audit` need from the join,
 * as SQL run after the plan's `finish` (clusterSql.ts) on the tables it left:
 * `scored` (a, b, agree), `verified` (a, b), `clusters` (id, position,
 * cluster, kept, grp, contaminated). Each query's rows are few (at most a
 * few thousand) and go back to the host, which builds the report, the audit
 * (src/audit/audit.ts) and the page from them (src/pipeline/cluster/clusterInspect.ts).
 *
 * - `counts`: the report's document counts, as dedup's assignment counts them.
 * - `histogram`: verified pairs by agreeing slots (the similarity histogram;
 *   the audit's bin populations).
 * - `largest`: the kept document and first removed members of candidate
 *   largest clusters. The largest ten of two or more distinct texts are among
 *   the ten largest of each of 64 slices (cluster label mod 64): no step sees
 *   every cluster at once, and the host picks the ten.
 * - `audit_populations`, `audit_sample` (with `--audit N`): N accepted pairs
 *   per bin of estimated similarity and N removed documents (text differing
 *   from their kept one's, measured against it), each with its common
 *   shingles. The sample is the N smallest keys of a seeded hash of the
 *   positions, taken in two steps as above (per stratum and slice, then per
 *   stratum), so both engines draw the same sample without a one-partition
 *   step. The hash is integer arithmetic modulo 2^31 − 1 whose every
 *   intermediate stays below 2^63, so neither dialect overflows: an affine
 *   map of the (global) positions, then two squarings (x² + c), which
 *   scramble it; the sample is the same however the corpus was sharded.
 *   dedup draws its sample with a Mersenne Twister instead; the populations
 *   are the same, the sampled items are not.
 */
import type { SqlStep } from './sqlParts.js';
import { commonShingleSteps } from './exactPassSql.js';

/** Audit strata 0 … bins − 1 are the similarity bins of accepted pairs; this one the removed documents. */
export const REMOVED_STRATUM = 6;
/** Slices of the two-step top-N (see above). */
const SLICES = 64;
const PRIME = 2147483647;

export interface InspectOptions {
  /**
   * The least agreeing-slot count of each audit bin: a pair is in bin h when
   * its count reaches binFloors[h] and not binFloors[h + 1] (the host works
   * them out from the estimate and the bins' edges; bin 0's is 0).
   */
  readonly binFloors: readonly number[];
  /** Largest clusters shown, and removed members per cluster. */
  readonly largest: { readonly clusters: number; readonly members: number };
  /** `--audit N`: N per stratum; the seed's two halves, each below 2^31 − 1. */
  readonly audit?: { readonly perBin: number; readonly seedA: number; readonly seedB: number };
  /**
   * Shards that read their own pieces number documents `i × 2^32 + ordinal`
   * (shardRanges.ts); the sample hashes global positions (offset of shard i +
   * ordinal), so it is the same however the corpus was cut.
   */
  readonly rangeOffsets?: readonly number[];
}

export interface InspectQuery {
  readonly name: string;
  readonly sql: string;
}

export interface InspectPlan {
  readonly steps: readonly SqlStep[];
  readonly queries: readonly InspectQuery[];
}

/** A 64-bit seed (its two 32-bit halves) as the hash's two constants, each below 2^31 − 1. */
export function sampleSeeds(seed: { readonly hi: number; readonly lo: number }): { seedA: number; seedB: number } {
  return { seedA: seed.lo % PRIME, seedB: seed.hi % PRIME };
}

/** A BIGINT hash of one or two non-negative BIGINT columns (see above); below 2^31 − 1. */
export function sampleKeySql(x: string, y: string | undefined, seedA: number, seedB: number): string {
  const affine = `((${x} % ${PRIME}) * 48271 + ${y === undefined ? '0' : `(${y} % ${PRIME})`} + ${seedA}) % ${PRIME}`;
  const square = (h: string, c: number): string => `((${h}) * (${h}) + ${c}) % ${PRIME}`;
  return square(square(affine, seedB), 1);
}

export function inspectPlan(o: InspectOptions): InspectPlan {
  const bin = `CASE ${o.binFloors
    .map((floor, h) => ({ floor, h }))
    .slice(1)
    .reverse()
    .map(({ floor, h }) => `WHEN agree >= ${floor} THEN ${h}`)
    .join(' ')} ELSE 0 END`;
  const steps: SqlStep[] = [
    {
      name: 'verified_scored',
      sql: `SELECT v.a, v.b, CAST(s.agree AS BIGINT) AS agree FROM verified v JOIN scored s ON s.a = v.a AND s.b = v.b`,
    },
    {
      name: 'cluster_texts',
      sql: `SELECT cluster, COUNT(*) AS size, COUNT(DISTINCT grp) AS texts FROM clusters GROUP BY cluster`,
    },
    {
      name: 'largest_pool',
      sql: `SELECT cluster, size FROM (
  SELECT cluster, size, ROW_NUMBER() OVER (PARTITION BY cluster % ${SLICES} ORDER BY size DESC, cluster) AS rn FROM cluster_texts WHERE texts >= 2) t
WHERE rn <= ${o.largest.clusters}`,
    },
    ...(o.audit === undefined ? [] : auditSteps(bin, o.audit, o.rangeOffsets)),
  ];
  const queries: InspectQuery[] = [
    {
      name: 'counts',
      sql: `SELECT * FROM (
  SELECT COUNT(*) AS documents, COUNT(CASE WHEN grp IS NULL THEN 1 END) AS empty, COUNT(DISTINCT grp) AS distinct_texts,
         COUNT(CASE WHEN kept = 0 THEN 1 END) AS removed, COUNT(CASE WHEN contaminated = 1 THEN 1 END) AS contaminated
  FROM clusters) d
CROSS JOIN (SELECT COUNT(*) AS near_duplicate_clusters FROM cluster_texts WHERE texts >= 2) n`,
    },
    { name: 'histogram', sql: `SELECT agree, COUNT(*) AS pairs FROM verified_scored GROUP BY agree` },
    {
      name: 'largest',
      sql: `SELECT cluster, size, position, id, kept, grp FROM (
  SELECT c.cluster, l.size, c.position, c.id, c.kept, c.grp, ROW_NUMBER() OVER (PARTITION BY c.cluster ORDER BY c.kept DESC, c.position) AS rn
  FROM clusters c JOIN largest_pool l ON l.cluster = c.cluster) t
WHERE rn <= ${o.largest.members + 1}`,
    },
    ...(o.audit === undefined
      ? []
      : [
          { name: 'audit_populations', sql: `SELECT stratum, COUNT(*) AS n FROM audit_pool GROUP BY stratum` },
          {
            name: 'audit_sample',
            sql: `SELECT c.stratum, c.sample_rank, c.x, c.y, c.x_set, c.y_set, c.agree, COALESCE(m.common, 0) AS common, sx.n AS nx, sy.n AS ny, ix.id AS x_id, iy.id AS y_id
FROM audit_chosen c
LEFT JOIN audit_measure_common m ON m.x_set = c.x_set AND m.y_set = c.y_set
JOIN audit_measure_sets sx ON sx.position = c.x_set
JOIN audit_measure_sets sy ON sy.position = c.y_set
JOIN clusters ix ON ix.position = c.x
JOIN clusters iy ON iy.position = c.y`,
          },
        ]),
  ];
  return { steps, queries };
}

const STRIDE = 2 ** 32;

/** The global position of a position column (see rangeOffsets): integer arithmetic and a CASE over the shards. */
export function globalPositionSql(column: string, offsets: readonly number[] | undefined): string {
  if (offsets === undefined) return column;
  const cases = offsets.map((offset, i) => `WHEN ${i * STRIDE} THEN ${offset}`).join(' ');
  return `(${column} % ${STRIDE} + CASE ${column} - ${column} % ${STRIDE} ${cases} END)`;
}

/** The sample: pools per stratum, the N smallest keys per stratum, their lists' common shingles. */
function auditSteps(
  bin: string,
  a: NonNullable<InspectOptions['audit']>,
  offsets: readonly number[] | undefined,
): SqlStep[] {
  const n = a.perBin;
  const global = (column: string): string => globalPositionSql(column, offsets);
  return [
    {
      // Pairs name their groups (a, b: first positions); a removed document and its kept one are measured by their
      // groups' lists.
      name: 'audit_pool',
      sql: `SELECT stratum, x, y, x_set, y_set, agree, ${sampleKeySql('gx', 'gy', a.seedA, a.seedB)} AS sample_key FROM (
  SELECT CAST(${bin} AS INT) AS stratum, a AS x, b AS y, a AS x_set, b AS y_set, agree, ${global('a')} AS gx, ${global('b')} AS gy FROM verified_scored) p
UNION ALL
SELECT stratum, x, y, x_set, y_set, agree, ${sampleKeySql('gx', undefined, a.seedA, a.seedB)} AS sample_key FROM (
  SELECT CAST(${REMOVED_STRATUM} AS INT) AS stratum, r.position AS x, k.position AS y, r.grp AS x_set, k.grp AS y_set, CAST(NULL AS BIGINT) AS agree, ${global('r.position')} AS gx
  FROM clusters r JOIN clusters k ON k.cluster = r.cluster AND k.kept = 1
  WHERE r.kept = 0 AND r.contaminated = 0 AND r.grp IS NOT NULL AND r.grp <> k.grp) r`,
    },
    {
      name: 'audit_sliced',
      sql: `SELECT stratum, x, y, x_set, y_set, agree, sample_key FROM (
  SELECT p.*, ROW_NUMBER() OVER (PARTITION BY stratum, sample_key % ${SLICES} ORDER BY sample_key, x, y) AS rn FROM audit_pool p) t
WHERE rn <= ${n}`,
    },
    {
      name: 'audit_chosen',
      sql: `SELECT stratum, x, y, x_set, y_set, agree, sample_rank FROM (
  SELECT p.*, ROW_NUMBER() OVER (PARTITION BY stratum ORDER BY sample_key, x, y) AS sample_rank FROM audit_sliced p) t
WHERE sample_rank <= ${n}`,
    },
    { name: 'audit_measure_pairs', sql: `SELECT DISTINCT x_set, y_set FROM audit_chosen` },
    ...commonShingleSteps('audit_measure', 'audit_measure_pairs', 'x_set', 'y_set').steps,
  ];
}
