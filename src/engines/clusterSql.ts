/**
 * The whole cluster join as SQL, the one place it is written: band buckets, the candidate rule of `dedup`,
 * verification by signature estimate, exact groups, connected components by large-star / small-star (Kiveris et al.,
 * "Connected Components in MapReduce and Beyond", SoCC 2014) and the keep
 * policy. The input is a relation `shards` with the columns of
 * src/formats/shards/shardFile.ts; each engine (duckdb.ts, the Spark job of spark.ts)
 * registers it, materializes every step as a table under its name and runs
 * the loop. No `node:` import: the plan is data, handed to Python as JSON.
 *
 * Dialect: the statements use only what DuckDB and Spark SQL share — SELECT, inner/left joins, GROUP BY, UNION / UNION
 * ALL, DISTINCT, CASE, COALESCE, LEAST, ROW_NUMBER and COUNT windows, BIGINT arithmetic and comparisons.
 * Where the two differ, the engines differ, not the SQL:
 * - materializing a step: DuckDB `CREATE OR REPLACE TABLE t AS …`; Spark
 *   `spark.sql(…).localCheckpoint()`, cached, registered as a temporary view
 *   (a view alone would grow the lineage every round of the loop); a step
 *   marked `view` is a view on both;
 * - reading Parquet: DuckDB `read_parquet([…])`, Spark `spark.read.parquet(…)`;
 * - writing: DuckDB's rows stream back to Node; the Spark job writes Parquet parts, read back here.
 * - band keys and slots are flat columns, not lists: DuckDB lists are 1-based
 *   `l[i]`, Spark arrays 0-based `a[i]` with 1-based `element_at`, and their
 *   lambda syntaxes differ. The one list, the shingle set, is only exploded,
 *   measured and intersected (`explode`, `size`, `array_intersect`: Spark's;
 *   macros in DuckDB for its `unnest`, `array_length`): see sqlParts.ts.
 * - no global ROW_NUMBER(): a cluster is labelled by its first document's
 *   position, and the engines number labels 0, 1, … while they stream the rows
 *   back in position order (engine.ts, `numberClusters`), so no step needs
 *   one partition to see every row.
 * - thresholds are compared as integer slot counts (see minimumAgreement and
 *   estimateBounds), and exact Jaccard against `CAST('0.8' AS DOUBLE)`, a
 *   string both parse to the nearest double (0.8 alone is DECIMAL in both).
 */

import { chainGuardOps } from './chainGuardSql.js';
import type { InspectPlan } from './inspectSql.js';
import { referenceSteps } from './referenceSql.js';
import { checkRule, hasMargin, starLoop, type PlanOp, type SqlPairRule, type SqlStep } from './sqlParts.js';
import { exactPassSteps, type ExactPass } from './exactPassSql.js';
import { scoredSteps } from './scoredSql.js';

export { isLoop, statementsOf, type PlanLoop, type PlanOp, type SqlPairRule, type SqlStep } from './sqlParts.js';

export interface ClusterSqlOptions {
  readonly k: number;
  readonly bands: number;
  /** Buckets up to this size give all pairs; larger ones a star around the first member plus a chain. */
  readonly maxBucketPairs: number;
  /** How candidate pairs are verified (at the threshold). */
  readonly verify: SqlPairRule;
  /** The representative check (at t − δ) and R; absent: `--cluster-check none`. */
  readonly check?: { readonly rule: SqlPairRule; readonly maxRepresentatives: number };
  /**
   * `longest` ranks by the length column, `score` by the score column (`--keep field:NAME`); `first` by position alone.
   */
  readonly keep: 'first' | 'longest' | 'score';
  /**
   * Decontamination against the relation `reference` (`--against`): reference members a corpus member of a big bucket
   * meets.
   */
  readonly reference?: { readonly anchors: number };
  /** How the exact passes count common shingles (exactPassSql.ts): `host` on shards with text ranges (v3). */
  readonly exactPass?: ExactPass;
  /** DuckDB: `scored` in parts, cut at these positions (scoredSql.ts). */
  readonly scoredCuts?: readonly number[];
}

export interface ClusterPlan {
  /** Run once, in order. */
  readonly setup: readonly SqlStep[];
  /**
   * Statistics after setup: one row with columns candidates, verified, largest_bucket, exact_pairs,
   * contaminated_groups.
   */
  readonly stats: string;
  /** Run once after the stats: the components loop, then the representative check's rounds. */
  readonly program: readonly PlanOp[];
  /**
   * The last step is `clusters` (id, position, cluster: the label, its first
   * document's position; kept as 0/1; grp: the exact group, its first
   * document's position, null when empty; contaminated as 0/1).
   */
  readonly finish: readonly SqlStep[];
  /**
   * Run before everything: each query gives one row (n, example); n > 0 stops the run with `message` and the example.
   */
  readonly checks: readonly PlanCheck[];
  /**
   * `cluster --report`, `--report-html`, `--audit`: steps after `finish`, then small queries whose rows go back to the
   * host (inspectSql.ts).
   */
  readonly inspect?: InspectPlan;
}

export interface PlanCheck {
  readonly name: string;
  readonly sql: string;
  readonly message: string;
}

/** An id in two shards: each shard checked its own ids when it was signed, only the join sees them all. */
export const REPEATED_ID_CHECK: PlanCheck = {
  name: 'repeated_ids',
  sql: `SELECT COUNT(*) AS n, MIN(id) AS example FROM (SELECT id FROM shards GROUP BY id HAVING COUNT(*) > 1) r`,
  message: 'ids must be unique across the shards, and this one is in more than one document',
};

/**
 * The least m with m / k ≥ threshold in JavaScript's double arithmetic, i.e.
 * exactly the pairs `signatureAgreement(a, b) >= threshold` keeps in dedup.
 */
export function minimumAgreement(threshold: number, k: number): number {
  for (let m = 0; m <= k; m++) if (m / k >= threshold) return m;
  return k + 1;
}

export function clusterPlan(options: ClusterSqlOptions): ClusterPlan {
  const { k, bands, maxBucketPairs, verify } = options;
  for (const [name, value] of Object.entries({ k, bands, maxBucketPairs })) {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new RangeError(`internal: ${name} must be a non-negative integer, got ${value}`);
  }
  checkRule(verify, k, 'verification');
  if (options.check !== undefined) checkRule(options.check.rule, k, 'cluster check');
  const against = options.reference !== undefined;
  const score = options.keep === 'longest' ? 's.length' : options.keep === 'score' ? 's.score' : 'CAST(0 AS BIGINT)';
  const exactPairs = hasMargin(verify)
    ? `(SELECT COUNT(*) FROM scored WHERE agree > ${verify.rejectUpTo} AND agree < ${verify.acceptFrom})`
    : 'CAST(0 AS BIGINT)';
  const stats =
    `SELECT (SELECT COUNT(*) FROM candidates) AS candidates, (SELECT COUNT(*) FROM verified) AS verified, ` +
    `(SELECT COALESCE(MAX(size), 0) FROM buckets) AS largest_bucket, ${exactPairs} AS exact_pairs, ` +
    `${against ? '(SELECT COUNT(*) FROM contaminated)' : 'CAST(0 AS BIGINT)'} AS contaminated_groups`;
  return {
    checks: [REPEATED_ID_CHECK],
    setup: setupSteps(options),
    stats,
    program: programOps(options, score),
    finish: finishSteps(options, score),
  };
}

/**
 * The plan's setup: exact groups, their bands (less the contaminated ones), buckets, candidates, verification, edges.
 */
function setupSteps(options: ClusterSqlOptions): SqlStep[] {
  const { k, bands, maxBucketPairs, verify } = options;
  const bandColumns = Array.from({ length: bands }, (_, j) => `band_${j}`);
  return [
    // Exact groups: identical normalized texts; a group is named by (and stands at) its first document's position.
    {
      name: 'exact_groups',
      sql:
        `SELECT exact_lo, exact_hi, MIN(position) AS node FROM shards WHERE exact_hi IS NOT NULL GROUP BY ` +
        `exact_lo, exact_hi`,
    },
    // A group's band keys, slots and shingles are its first document's (same normalized text, same signature), read by
    // position.
    {
      name: 'all_group_bands',
      sql:
        `SELECT g.node, ${bandColumns.map((c) => `s.${c}`).join(', ')} FROM shards s JOIN exact_groups g ON ` +
        `s.position = g.node`,
    },
    // With a reference set, the groups it contaminates are removed, then the rest banded without them (as
    // dedupSigned.ts bands again).
    ...(options.reference === undefined
      ? [{ name: 'group_bands', sql: `SELECT * FROM all_group_bands`, view: true }]
      : [
          ...referenceSteps({ ...options, ...options.reference, rule: verify }),
          // NOT IN, not a LEFT JOIN … IS NULL: with the latter Spark 4.3 failed to plan the union in `verified` ("key
          // not found").
          {
            name: 'group_bands',
            sql: `SELECT * FROM all_group_bands WHERE node NOT IN (SELECT node FROM contaminated)`,
            view: true,
          },
        ]),
    ...bucketSteps(bandColumns, maxBucketPairs),
    // Verification (pairDecision.ts): the slot count decides outside the margin; exact Jaccard of the shingle lists
    // inside it.
    ...scoredSteps(k, verify, options.scoredCuts),
    ...(hasMargin(verify)
      ? exactPassSteps('margin_passed', 'scored', 'a', 'b', 'a, b', verify, 'shards', options.exactPass)
      : []),
    {
      name: 'verified',
      sql:
        `SELECT a, b FROM scored WHERE agree >= ${verify.acceptFrom}` +
        (hasMargin(verify) ? `\nUNION ALL\nSELECT a, b FROM margin_passed` : ''),
    },
    // Edges point from the larger node to the smaller (src > dst; a < b in candidates), the orientation both star
    // operations keep.
    { name: 'verified_edges', sql: `SELECT b AS src, a AS dst FROM verified`, view: true },
    { name: 'edges', sql: `SELECT src, dst FROM verified_edges` },
  ];
}

/** The bands' buckets, and the candidate pairs in them. */
function bucketSteps(bandColumns: readonly string[], maxBucketPairs: number): SqlStep[] {
  return [
    // Read once, by buckets: a view, so the band-major copy (bands × groups rows) is never stored.
    {
      name: 'band_members',
      sql: bandColumns
        .map((c, j) => `SELECT CAST(${j} AS INT) AS band, ${c} AS bucket_key, node FROM group_bands`)
        .join('\nUNION ALL\n'),
      view: true,
    },
    // Members of a bucket in group order, as BucketTable lists them; singletons make no pairs.
    {
      name: 'buckets',
      sql: `SELECT band, bucket_key, node, rn, size FROM (
  SELECT band, bucket_key, node,
         ROW_NUMBER() OVER (PARTITION BY band, bucket_key ORDER BY node) AS rn,
         COUNT(*) OVER (PARTITION BY band, bucket_key) AS size
  FROM band_members) b
WHERE size >= 2`,
    },
    // pairsInBucket of src/bands/candidates.ts: all pairs of a small bucket; in a big one each member with the first
    // and with its predecessor.
    {
      name: 'candidates',
      sql: `SELECT DISTINCT a, b FROM (
  SELECT x.node AS a, y.node AS b FROM buckets x JOIN buckets y ON x.band = y.band AND x.bucket_key = y.bucket_key AND x.rn < y.rn WHERE x.size <= ${maxBucketPairs}
  UNION ALL
  SELECT x.node AS a, y.node AS b FROM buckets x JOIN buckets y ON x.band = y.band AND x.bucket_key = y.bucket_key AND y.rn > 1 WHERE x.rn = 1 AND x.size > ${maxBucketPairs}
  UNION ALL
  SELECT x.node AS a, y.node AS b FROM buckets x JOIN buckets y ON x.band = y.band AND x.bucket_key = y.bucket_key AND y.rn = x.rn + 1 WHERE x.rn >= 2 AND x.size > ${maxBucketPairs}
) p`,
    },
  ];
}

/** The components loop, then (with a cluster check) the representative check's rounds. */
function programOps(options: ClusterSqlOptions, score: string): PlanOp[] {
  const program: PlanOp[] = [starLoop('', 'components')];
  if (options.check !== undefined) {
    // The order clustering.ts sorts groups in: the score of a group's preferred document, then that document's
    // position.
    const groupPref =
      options.keep === 'first'
        ? `SELECT node, ${score} AS score, node AS pref FROM exact_groups`
        : `SELECT node, score, pref FROM (
  SELECT g.node, ${score} AS score, s.position AS pref, ROW_NUMBER() OVER (PARTITION BY g.node ORDER BY ${score} DESC, s.position) AS rn
  FROM shards s JOIN exact_groups g ON s.exact_lo = g.exact_lo AND s.exact_hi = g.exact_hi) p
WHERE rn = 1`;
    program.push(
      { name: 'group_pref', sql: groupPref },
      ...chainGuardOps({
        k: options.k,
        rule: options.check.rule,
        maxRepresentatives: options.check.maxRepresentatives,
        exactPass: options.exactPass,
      }),
    );
  }
  return program;
}

/** Each document's cluster, and which document each cluster keeps. */
function finishSteps(options: ClusterSqlOptions, score: string): SqlStep[] {
  const against = options.reference !== undefined;
  // Each group in a pair, and the label of its cluster: the least group (its first document) of the cluster.
  const clusterOf =
    options.check === undefined
      ? `SELECT src AS node, dst AS label FROM edges UNION ALL SELECT DISTINCT dst AS node, dst AS label FROM edges`
      : `SELECT s.node, l.label FROM settled s JOIN (SELECT rep, MIN(node) AS label FROM settled GROUP BY rep) l ON l.rep = s.rep`;
  return [
    { name: 'cluster_of', sql: clusterOf },
    // A document's cluster is its group's; an empty document is a cluster of its own, and so is a contaminated group
    // (all removed). A view: read once, by `clusters` (stored, 1 M rows with their ids took 0.8 CPU-s on DuckDB).
    {
      name: 'documents',
      view: true,
      sql: `SELECT s.id, s.position, ${score} AS score,
       CASE WHEN s.exact_hi IS NULL THEN s.position ${against ? 'WHEN k.node IS NOT NULL THEN g.node ' : ''}ELSE COALESCE(c.label, g.node) END AS component,
       ${against ? 'CASE WHEN k.node IS NULL THEN 0 ELSE 1 END' : '0'} AS contaminated, g.node AS grp
FROM shards s
LEFT JOIN exact_groups g ON s.exact_lo = g.exact_lo AND s.exact_hi = g.exact_hi
LEFT JOIN cluster_of c ON c.node = g.node${against ? '\nLEFT JOIN contaminated k ON k.node = g.node' : ''}`,
    },
    // The label is the cluster's first position, so numbering labels in position order numbers clusters by first
    // document.
    {
      name: 'clusters',
      sql: `SELECT id, position, component AS cluster,
       CASE WHEN contaminated = 0 AND ROW_NUMBER() OVER (PARTITION BY component ORDER BY score DESC, position) = 1 THEN 1 ELSE 0 END AS kept,
       grp, contaminated
FROM documents`,
    },
  ];
}
