/**
 * Pieces of the cluster plan (clusterSql.ts) used more than once: the plan's
 * shape, a pair decision as SQL, and the large-star / small-star loop.
 *
 * A pair decision is the one of src/verify/pairDecision.ts with its numbers
 * worked out on the host: the count of agreeing slots is compared with two
 * integers (accept from, reject up to), and only between them — hybrid's
 * margin; every pair for exact — is the exact Jaccard of the two shingle lists
 * computed, as `common / (|A| + |B| − common) >= t` in doubles, the very
 * division and comparison exactJaccard makes in JavaScript. The spellings
 * the dialects do not share are a list's length and its rows: the SQL says
 * Spark's `size(l)` and `explode(l)`; DuckDB gets macros for its
 * `array_length(l)` and `unnest(l)` (duckdb.ts).
 */

export interface SqlStep {
  /** The table the step's SELECT is materialized as. */
  readonly name: string;
  readonly sql: string;
  /**
   * Registered as a view, not materialized: a step read once, or a cheap
   * projection of a stored table, where storing it costs more than running
   * its SELECT again (on Spark every stored step is one more job). A view is
   * bound by name in DuckDB: a name is a view in every step that makes it,
   * and a view's tables are not replaced while it is still read.
   */
  readonly view?: boolean;
  /**
   * A step decided on the host (textPairs.ts; DuckDB only, shards with text ranges and no lists): `sql` gives pairs
   * (columns l, r and each side's text_file, text_start, text_bytes as xf, xs, xb, yf, ys, yb); the table holds the
   * pairs (l, r) the rule's exact measure passes.
   */
  readonly host?: SqlPairRule;
  /**
   * DuckDB: its joins run in the order written, each building its hash table on its right side (the join order and
   * build side optimizers off for the step), where DuckDB's estimates would pick a side too big for memory
   * (scoredSql.ts). Spark plans it as always.
   */
  readonly asWritten?: boolean;
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
  /**
   * SimHash shards (`sign --shard --scheme simhash`): the fingerprint is the one column `slot_0`, agreement is
   * 64 − popcount(x XOR y), and the exact measure is the angle's (exactAngular), decided as cosine ≥ `cosineFloor`:
   * the least double whose angular similarity reaches the threshold in JavaScript's arithmetic (angularCosineFloor).
   */
  readonly simhash?: { readonly cosineFloor: number };
}

export function checkRule(rule: SqlPairRule, k: number, what: string): void {
  const { acceptFrom, rejectUpTo, threshold } = rule;
  if (
    !Number.isSafeInteger(acceptFrom) ||
    !Number.isSafeInteger(rejectUpTo) ||
    acceptFrom <= rejectUpTo ||
    acceptFrom < 0 ||
    acceptFrom > k + 1 ||
    rejectUpTo < -1
  ) {
    throw new RangeError(
      `internal: ${what} bounds must satisfy −1 ≤ reject < accept ≤ k + 1, got ${rejectUpTo}, ${acceptFrom}`,
    );
  }
  if (!(threshold > 0 && threshold <= 1))
    throw new RangeError(`internal: ${what} threshold must be in (0, 1], got ${threshold}`);
}

/** Whether any pair can fall between the bounds (then the plan reads shingle lists). */
export const hasMargin = (rule: SqlPairRule): boolean => rule.acceptFrom - rule.rejectUpTo > 1;

/**
 * Slots on which rows x and y agree; for SimHash the fingerprint's equal bits, 64 − popcount(x XOR y), XOR spelled
 * (x | y) & ~(x & y) (DuckDB's `^` is a power, Spark's a XOR; both count a negative BIGINT's 64 bits in bit_count).
 */
export function agreementSql(k: number, rule?: Pick<SqlPairRule, 'simhash'>, x = 'x', y = 'y'): string {
  if (rule?.simhash !== undefined) {
    const [a, b] = [`${x}.slot_0`, `${y}.slot_0`];
    return `(${k} - bit_count((${a} | ${b}) & ~(${a} & ${b})))`;
  }
  return Array.from({ length: k }, (_, i) => `CASE WHEN ${x}.slot_${i} = ${y}.slot_${i} THEN 1 ELSE 0 END`).join(' + ');
}

export function doubleSql(value: number): string {
  return `CAST('${String(value)}' AS DOUBLE)`;
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
      // A view: both directions of the stored edges, cheaper to read twice than to store once more.
      {
        name: `${p}neighbours`,
        sql: `SELECT src AS u, dst AS v FROM ${p}edges UNION ALL SELECT dst AS u, src AS v FROM ${p}edges`,
        view: true,
      },
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
    // A fixed point of both operations is a forest of stars around each component's least node: no edge points at a
    // non-root.
    until: `SELECT COUNT(*) AS n FROM ${p}edges e JOIN ${p}edges f ON e.dst = f.src`,
  };
}
