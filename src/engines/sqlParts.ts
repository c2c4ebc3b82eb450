/**
 * Pieces of the cluster plan (clusterSql.ts) used more than once: the plan's
 * shape, a pair decision as SQL, and the large-star / small-star loop.
 *
 * A pair decision is the one of src/clusters/pairDecision.ts with its numbers
 * worked out on the host: the count of agreeing slots is compared with two
 * integers (accept from, reject up to), and only between them — hybrid's
 * margin; every pair for exact — is the exact Jaccard of the two shingle lists
 * computed, as `common / (|A| + |B| − common) >= t` in doubles, the very
 * division and comparison exactJaccard makes in JavaScript. The one spelling
 * the dialects do not share is a list's length: the SQL says `size(l)`
 * (Spark's, with `array_intersect`, which both have); DuckDB gets a macro
 * `size(l) = array_length(l)` (duckdb.ts).
 */

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

/** Its body run again and again until `until` (one row, column `n`) gives 0. */
export interface PlanLoop {
  readonly loop: string;
  readonly body: readonly PlanOp[];
  readonly until: string;
}

export type PlanOp = SqlStep | PlanLoop;

export const isLoop = (op: PlanOp): op is PlanLoop => 'loop' in op;

/** Every statement of a plan's ops, loops unrolled once (for EXPLAIN, and tests). */
export function* statementsOf(ops: readonly PlanOp[]): Generator<{ name: string; sql: string }> {
  for (const op of ops) {
    if (isLoop(op)) {
      yield* statementsOf(op.body);
      yield { name: `${op.loop} (until)`, sql: op.until };
    } else yield op;
  }
}

/**
 * How a pair is decided from its agreeing slots X: accept when X ≥ acceptFrom,
 * reject when X ≤ rejectUpTo, otherwise exact Jaccard ≥ threshold.
 * estimate: m and m − 1 (no margin); exact: k + 1 and −1 (all margin).
 */
export interface SqlPairRule {
  readonly acceptFrom: number;
  readonly rejectUpTo: number;
  /** Compared as a double parsed from JavaScript's shortest round-trip text: the same double on both engines. */
  readonly threshold: number;
}

export function checkRule(rule: SqlPairRule, k: number, what: string): void {
  const { acceptFrom, rejectUpTo, threshold } = rule;
  if (!Number.isSafeInteger(acceptFrom) || !Number.isSafeInteger(rejectUpTo) || acceptFrom <= rejectUpTo || acceptFrom < 0 || acceptFrom > k + 1 || rejectUpTo < -1) {
    throw new RangeError(`internal: ${what} bounds must satisfy −1 ≤ reject < accept ≤ k + 1, got ${rejectUpTo}, ${acceptFrom}`);
  }
  if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`internal: ${what} threshold must be in (0, 1], got ${threshold}`);
}

/** Whether any pair can fall between the bounds (then the plan reads shingle lists). */
export const hasMargin = (rule: SqlPairRule): boolean => rule.acceptFrom - rule.rejectUpTo > 1;

/** Slots on which rows x and y agree. */
export function agreementSql(k: number, x = 'x', y = 'y'): string {
  return Array.from({ length: k }, (_, i) => `CASE WHEN ${x}.slot_${i} = ${y}.slot_${i} THEN 1 ELSE 0 END`).join(' + ');
}

export function doubleSql(value: number): string {
  return `CAST('${String(value)}' AS DOUBLE)`;
}

/**
 * The rows of `from` (with columns named by `left`, `right` and `agree`) inside
 * the rule's margin whose shingle lists reach the threshold; `keep` lists the
 * columns returned. Two empty lists: union 0, similarity 0, as exactJaccard.
 *
 * Counting common shingles by a join of the exploded lists on (document,
 * shingle) instead was twice as fast on DuckDB (array_intersect is |A|·|B|
 * there) with the same clusters, but is not tested on Spark yet: one step
 * for now (bench/RESULTS.md).
 */
export function exactPassSteps(name: string, from: string, left: string, right: string, keep: string, rule: SqlPairRule, rightTable = 'shards'): SqlStep[] {
  return [{ name, sql: exactPassSql(from, left, right, keep, rule, rightTable) }];
}

export function exactPassSql(from: string, left: string, right: string, keep: string, rule: SqlPairRule, rightTable = 'shards'): string {
  return `SELECT ${keep} FROM (
  SELECT s.*, size(array_intersect(x.shingles, y.shingles)) AS common, size(x.shingles) + size(y.shingles) AS total
  FROM ${from} s JOIN shards x ON x.position = s.${left} JOIN ${rightTable} y ON y.position = s.${right}
  WHERE s.agree > ${rule.rejectUpTo} AND s.agree < ${rule.acceptFrom}) p
WHERE CAST(common AS DOUBLE) / CAST(GREATEST(total - common, 1) AS DOUBLE) >= ${doubleSql(rule.threshold)}`;
}

/**
 * Connected components of the edges in table `${p}edges` (src > dst) by
 * large-star / small-star (Kiveris et al., "Connected Components in
 * MapReduce and Beyond", SoCC 2014): at the fixed point the table is a forest
 * of stars, each node pointing at the least node of its component.
 */
export function starLoop(p: string, loop: string): PlanLoop {
  return {
    loop,
    body: [
      { name: `${p}neighbours`, sql: `SELECT src AS u, dst AS v FROM ${p}edges UNION ALL SELECT dst AS u, src AS v FROM ${p}edges` },
      // Large-star: every neighbour v > u is linked to m(u), the least of u and its neighbours.
      {
        name: `${p}large_star`,
        sql: `SELECT DISTINCT n.v AS src, m.m AS dst FROM ${p}neighbours n
JOIN (SELECT u, LEAST(u, MIN(v)) AS m FROM ${p}neighbours GROUP BY u) m ON n.u = m.u
WHERE n.v > n.u`,
      },
      // Small-star: u and each of its smaller neighbours are linked to the least of them.
      {
        name: `${p}edges`,
        sql: `SELECT src, m AS dst FROM (SELECT src, MIN(dst) AS m FROM ${p}large_star GROUP BY src) mins
UNION
SELECT e.dst AS src, mins.m AS dst FROM ${p}large_star e JOIN (SELECT src, MIN(dst) AS m FROM ${p}large_star GROUP BY src) mins ON e.src = mins.src WHERE e.dst <> mins.m`,
      },
    ],
    // A fixed point of both operations is a forest of stars around each component's least node: no edge points at a non-root.
    until: `SELECT COUNT(*) AS n FROM ${p}edges e JOIN ${p}edges f ON e.dst = f.src`,
  };
}
