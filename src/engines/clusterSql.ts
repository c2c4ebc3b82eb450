/**
 * The whole cluster join as SQL, the one place it is written: band buckets,
 * the candidate rule of `dedup`, verification by signature estimate, exact
 * groups, connected components by large-star / small-star (Kiveris et al.,
 * "Connected Components in MapReduce and Beyond", SoCC 2014) and the keep
 * policy. The input is a relation `shards` with the columns of
 * src/formats/shardFile.ts; each engine (duckdb.ts, the Spark job of spark.ts)
 * registers it, materializes every step as a table under its name and runs
 * the loop. No `node:` import: the plan is data, handed to Python as JSON.
 *
 * Dialect: the statements use only what DuckDB and Spark SQL share — SELECT,
 * inner/left joins, GROUP BY, UNION / UNION ALL, DISTINCT, CASE, COALESCE,
 * LEAST, ROW_NUMBER and COUNT windows, BIGINT arithmetic and comparisons.
 * Where the two differ, the engines differ, not the SQL:
 * - materializing a step: DuckDB `CREATE OR REPLACE TABLE t AS …`; Spark
 *   `spark.sql(…).localCheckpoint()` registered as a temporary view (a view
 *   alone would grow the lineage every round of the loop);
 * - reading Parquet: DuckDB `read_parquet([…])`, Spark `spark.read.parquet(…)`;
 * - writing: DuckDB `COPY … TO`, Spark's DataFrame writer.
 * - lists are avoided on purpose (band keys and slots are flat columns): DuckDB
 *   lists are 1-based `l[i]`, Spark arrays 0-based `a[i]` with 1-based
 *   `element_at`, and their lambda syntaxes differ.
 * - the threshold is compared as an integer slot count (see
 *   minimumAgreement), so no floating-point literal has to mean the same thing
 *   in both (0.8 is DECIMAL in DuckDB, DECIMAL in Spark too, but casts differ).
 */

export interface ClusterSqlOptions {
  readonly k: number;
  readonly bands: number;
  /** Buckets up to this size give all pairs; larger ones a star around the first member plus a chain. */
  readonly maxBucketPairs: number;
  /** Verified pairs agree on at least this many of the k slots. */
  readonly minAgreement: number;
  /** `longest` ranks by the length column; `first` by position alone. */
  readonly keep: 'first' | 'longest';
}

export interface SqlStep {
  /** The table the step's SELECT is materialized as. */
  readonly name: string;
  readonly sql: string;
  /**
   * Registered as a view, not materialized: a wide projection of the input
   * that is cheaper to read again from Parquet than to copy (DuckDB buffers a
   * 122,880-row group per thread when it writes a table, 140 MB at k = 128).
   */
  readonly view?: boolean;
}

export interface ClusterPlan {
  /** Run once, in order. */
  readonly setup: readonly SqlStep[];
  /** One round of the components loop, run until `converged` returns 0 (one row, column `n`). */
  readonly round: readonly SqlStep[];
  readonly converged: string;
  /** Run once after the loop; the last step is `clusters` (id, position, cluster, kept as 0/1). */
  readonly finish: readonly SqlStep[];
  /** Statistics after setup: one row with columns candidates, verified, largest_bucket. */
  readonly stats: string;
}

/**
 * The least m with m / k ≥ threshold in JavaScript's double arithmetic, i.e.
 * exactly the pairs `signatureAgreement(a, b) >= threshold` keeps in dedup.
 */
export function minimumAgreement(threshold: number, k: number): number {
  for (let m = 0; m <= k; m++) if (m / k >= threshold) return m;
  return k + 1;
}

export function clusterPlan(options: ClusterSqlOptions): ClusterPlan {
  const { k, bands, maxBucketPairs, minAgreement } = options;
  for (const [name, value] of Object.entries({ k, bands, maxBucketPairs, minAgreement })) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`internal: ${name} must be a non-negative integer, got ${value}`);
  }
  const slots = Array.from({ length: k }, (_, i) => `slot_${i}`);
  const bandColumns = Array.from({ length: bands }, (_, j) => `band_${j}`);
  const agreement = slots.map((s) => `CASE WHEN x.${s} = y.${s} THEN 1 ELSE 0 END`).join(' + ');
  const score = options.keep === 'longest' ? 's.length' : 'CAST(0 AS BIGINT)';

  const setup: SqlStep[] = [
    // Exact groups: identical normalized texts; a group is named by (and stands at) its first document's position.
    { name: 'exact_groups', sql: `SELECT exact_lo, exact_hi, MIN(position) AS node FROM shards WHERE exact_hi IS NOT NULL GROUP BY exact_lo, exact_hi` },
    // A group's band keys are its first document's; slots are read from the shards by position when verifying.
    { name: 'group_bands', sql: `SELECT g.node, ${bandColumns.map((c) => `s.${c}`).join(', ')} FROM shards s JOIN exact_groups g ON s.position = g.node` },
    { name: 'band_members', sql: bandColumns.map((c, j) => `SELECT CAST(${j} AS INT) AS band, ${c} AS bucket_key, node FROM group_bands`).join('\nUNION ALL\n') },
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
    // pairsInBucket of src/bands/candidates.ts: all pairs of a small bucket; in a big one each member with the first and with its predecessor.
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
    { name: 'verified', sql: `SELECT c.a, c.b FROM candidates c JOIN shards x ON x.position = c.a JOIN shards y ON y.position = c.b WHERE ${agreement} >= ${minAgreement}` },
    // Edges point from the larger node to the smaller (src > dst), the orientation both star operations keep.
    { name: 'edges', sql: `SELECT b AS src, a AS dst FROM verified` },
  ];

  const round: SqlStep[] = [
    { name: 'neighbours', sql: `SELECT src AS u, dst AS v FROM edges UNION ALL SELECT dst AS u, src AS v FROM edges` },
    // Large-star: every neighbour v > u is linked to m(u), the least of u and its neighbours.
    {
      name: 'large_star',
      sql: `SELECT DISTINCT n.v AS src, m.m AS dst FROM neighbours n
JOIN (SELECT u, LEAST(u, MIN(v)) AS m FROM neighbours GROUP BY u) m ON n.u = m.u
WHERE n.v > n.u`,
    },
    // Small-star: u and each of its smaller neighbours are linked to the least of them.
    {
      name: 'edges',
      sql: `SELECT src, m AS dst FROM (SELECT src, MIN(dst) AS m FROM large_star GROUP BY src) mins
UNION
SELECT e.dst AS src, mins.m AS dst FROM large_star e JOIN (SELECT src, MIN(dst) AS m FROM large_star GROUP BY src) mins ON e.src = mins.src WHERE e.dst <> mins.m`,
    },
  ];
  // A fixed point of both operations is a forest of stars around each component's least node: no edge points at a non-root.
  const converged = `SELECT COUNT(*) AS n FROM edges e JOIN edges f ON e.dst = f.src`;

  const finish: SqlStep[] = [
    // A document's component is its group's root; an empty document is a component of its own.
    {
      name: 'documents',
      sql: `SELECT s.id, s.position, ${score} AS score,
       CASE WHEN s.exact_hi IS NULL THEN s.position ELSE COALESCE(r.dst, g.node) END AS component
FROM shards s
LEFT JOIN exact_groups g ON s.exact_lo = g.exact_lo AND s.exact_hi = g.exact_hi
LEFT JOIN edges r ON r.src = g.node`,
    },
    // A component's label is its first document's position, so numbering labels in order numbers clusters by first document.
    { name: 'cluster_numbers', sql: `SELECT component, ROW_NUMBER() OVER (ORDER BY component) - 1 AS cluster FROM (SELECT DISTINCT component FROM documents) c` },
    {
      name: 'clusters',
      sql: `SELECT d.id, d.position, n.cluster,
       CASE WHEN ROW_NUMBER() OVER (PARTITION BY d.component ORDER BY d.score DESC, d.position) = 1 THEN 1 ELSE 0 END AS kept
FROM documents d JOIN cluster_numbers n ON d.component = n.component`,
    },
  ];
  const stats = `SELECT (SELECT COUNT(*) FROM candidates) AS candidates, (SELECT COUNT(*) FROM verified) AS verified, (SELECT COALESCE(MAX(size), 0) FROM buckets) AS largest_bucket`;
  return { setup, round, converged, finish, stats };
}
