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
 * Where the exact pass counts a margin pair's common shingles:
 * - `join`: the lists of the documents in such pairs are read in one scan of each side into `name_elements`, one row
 *   per shingle, and a pair's common shingles counted by a join on (document, shingle): linear in the shingles, where
 *   DuckDB's `array_intersect` (a list_filter + list_contains) is |A|·|B|;
 * - `intersect`: size(array_intersect(x, y)) in the pair's row, which Spark computes with a hash set, linear, with no
 *   shuffle of every shingle of every document in a pair (the join's cost on Spark);
 * - `host`: the texts, read and shingled on the host (shards with text ranges, no lists: textPassSteps).
 * A list holds each shingle once (shingleDocument deduplicates), so every way counts |A ∩ B|.
 */
export type ExactPass = 'join' | 'intersect' | 'host';

/**
 * Steps ending in table `name`: the rows of `from` (with columns named by `left`, `right` and `agree`) inside the
 * rule's margin whose shingle lists reach the threshold, counted as `pass` says; `keep` lists the columns returned. A
 * pair with no common shingle has similarity 0 and fails; two empty lists likewise, as exactJaccard.
 */
export function exactPassSteps(
  name: string,
  from: string,
  left: string,
  right: string,
  keep: string,
  rule: SqlPairRule,
  rightTable = 'shards',
  pass: ExactPass = 'join',
): SqlStep[] {
  const pairs = `${name}_pairs`;
  const margin = {
    name: pairs,
    sql: `SELECT * FROM ${from} WHERE agree > ${rule.rejectUpTo} AND agree < ${rule.acceptFrom}`,
  };
  if (pass === 'host') return [margin, ...textPassSteps(name, { pairs, left, right, keep }, rule)];
  if (pass === 'intersect') return [margin, intersectedPassStep(name, { pairs, left, right, keep }, rule, rightTable)];
  const { steps, rightSets } = commonShingleSteps(name, pairs, left, right, rightTable);
  return [
    margin,
    ...steps,
    rule.simhash === undefined
      ? {
          name,
          sql: `SELECT ${keep} FROM (
  SELECT s.*, c.common, x.n + y.n AS total
  FROM ${pairs} s JOIN ${name}_common c ON c.${left} = s.${left} AND c.${right} = s.${right} JOIN ${name}_sets x ON x.position = s.${left} JOIN ${rightSets} y ON y.position = s.${right}) p
WHERE ${jaccardReaches(rule.threshold)}`,
        }
      : angularPassStep(name, pairs, left, right, keep, rightSets, rule.simhash.cosineFloor),
  ];
}

/** Jaccard from columns `common` and `total` (|A| + |B|) at or above the threshold, as exactJaccard divides. */
function jaccardReaches(threshold: number): string {
  return `CAST(common AS DOUBLE) / CAST(GREATEST(total - common, 1) AS DOUBLE) >= ${doubleSql(threshold)}`;
}

/** The angle's cosine from columns `common` and `product` (|A|·|B|) at or above the floor, as exactAngular. */
function cosineReaches(cosineFloor: number): string {
  return `product > 0 AND CAST(common AS DOUBLE) / sqrt(product) >= ${doubleSql(cosineFloor)}`;
}

/**
 * The `intersect` pass: each margin pair's lists intersected in its row. Sort-merge joins (the hint, a comment to
 * DuckDB): Spark otherwise broadcasts a side that holds lists and runs out of driver memory at 100 k documents.
 */
function intersectedPassStep(
  name: string,
  { pairs, left, right, keep }: Record<'pairs' | 'left' | 'right' | 'keep', string>,
  rule: SqlPairRule,
  rightTable: string,
): SqlStep {
  const [nx, ny] = ['size(x.shingles)', 'size(y.shingles)'];
  const measure =
    rule.simhash === undefined
      ? { columns: `${nx} + ${ny} AS total`, reaches: jaccardReaches(rule.threshold) }
      : {
          columns: `CAST(${nx} AS DOUBLE) * CAST(${ny} AS DOUBLE) AS product`,
          reaches: cosineReaches(rule.simhash.cosineFloor),
        };
  return {
    name,
    sql: `SELECT ${keep} FROM (
  SELECT /*+ MERGE(x), MERGE(y) */ s.*, size(array_intersect(x.shingles, y.shingles)) AS common, ${measure.columns}
  FROM ${pairs} s JOIN shards x ON x.position = s.${left} JOIN ${rightTable} y ON y.position = s.${right}) p
WHERE ${measure.reaches}`,
  };
}

/**
 * exactPassSteps on shards with text ranges, not lists: the margin pairs with where their texts lie go to the host,
 * which reads, shingles and decides them as dedup does (textPairs.ts); the pairs it passes come back as `${name}_host`.
 */
function textPassSteps(
  name: string,
  { pairs, left, right, keep }: Record<'pairs' | 'left' | 'right' | 'keep', string>,
  rule: SqlPairRule,
): SqlStep[] {
  // Doubles (exact to 2^53), not BIGINTs: the host reads them as numbers, not one BigInt each (GC at 1 M pairs).
  const double = (column: string, as: string): string => `CAST(${column} AS DOUBLE) AS ${as}`;
  const range = (t: string, p: string): string =>
    [double(`${t}.text_file`, `${p}f`), double(`${t}.text_start`, `${p}s`), double(`${t}.text_bytes`, `${p}b`)].join(
      ', ',
    );
  return [
    {
      name: `${name}_host`,
      sql: `SELECT ${double(`p.${left}`, 'l')}, ${double(`p.${right}`, 'r')}, ${range('x', 'x')}, ${range('y', 'y')}
FROM (SELECT DISTINCT ${left}, ${right} FROM ${pairs}) p JOIN shards x ON x.position = p.${left} JOIN shards y ON y.position = p.${right}`,
      host: rule,
    },
    {
      name,
      sql: `SELECT ${keep} FROM (SELECT s.* FROM ${pairs} s JOIN ${name}_host h ON h.l = s.${left} AND h.r = s.${right}) p`,
    },
  ];
}

/**
 * exactAngular's decision: cos θ = |A ∩ B| / √(|A|·|B|) (the product and the root in doubles, as there) against the
 * least passing cosine. A pair with nothing in common has cos θ = 0 (angular similarity ½, which a threshold ≤ ½
 * accepts), so the common counts are left-joined; an empty set (n = 0) never passes, as exactAngular's 0.
 */
function angularPassStep(
  name: string,
  pairs: string,
  left: string,
  right: string,
  keep: string,
  rightSets: string,
  cosineFloor: number,
): SqlStep {
  return {
    name,
    sql: `SELECT ${keep} FROM (
  SELECT s.*, COALESCE(c.common, 0) AS common, CAST(x.n AS DOUBLE) * CAST(y.n AS DOUBLE) AS product
  FROM ${pairs} s LEFT JOIN ${name}_common c ON c.${left} = s.${left} AND c.${right} = s.${right} JOIN ${name}_sets x ON x.position = s.${left} JOIN ${rightSets} y ON y.position = s.${right}) p
WHERE ${cosineReaches(cosineFloor)}`,
  };
}

/**
 * Steps counting the common shingles of the pairs in table `pairs` (columns
 * `left`, `right`: positions in `shards`, and in `rightTable` for the right
 * side): `${name}_elements` (position, h) holds the lists read, one row a shingle, `${name}_sets` (position, n)
 * their lengths, and
 * `${name}_common` (left, right, common) each pair with a shingle in common
 * (a pair without one has no row).
 */
export function commonShingleSteps(
  name: string,
  pairs: string,
  left: string,
  right: string,
  rightTable = 'shards',
): { steps: SqlStep[]; rightSets: string } {
  const sets = `${name}_sets`;
  const sameSide = rightTable === 'shards';
  const rightSets = sameSide ? sets : `${name}_right_sets`;
  const needed = sameSide
    ? `SELECT ${left} AS position FROM ${pairs} UNION SELECT ${right} AS position FROM ${pairs}`
    : `SELECT DISTINCT ${left} AS position FROM ${pairs}`;
  // The lists are exploded straight from the shards (a copy of the lists read was one more pass over them), and
  // each list's length counted from its rows: an empty list has none, hence the LEFT JOIN and 0.
  const explode = (table: string, positions: string): string =>
    `SELECT position, explode(shingles) AS h FROM ${table} WHERE position IN (${positions})`;
  const setsOf = (elements: string, positions: string): string =>
    `SELECT p.position, COALESCE(c.n, 0) AS n FROM (${positions}) p
LEFT JOIN (SELECT position, COUNT(*) AS n FROM ${elements} GROUP BY position) c ON c.position = p.position`;
  const rightPositions = `SELECT DISTINCT ${right} AS position FROM ${pairs}`;
  const steps: SqlStep[] = [
    { name: `${name}_elements`, sql: explode('shards', needed) },
    ...(sameSide ? [] : [{ name: `${name}_right_elements`, sql: explode(rightTable, rightPositions) }]),
    { name: sets, sql: setsOf(`${name}_elements`, needed) },
    ...(sameSide ? [] : [{ name: rightSets, sql: setsOf(`${name}_right_elements`, rightPositions) }]),
    {
      name: `${name}_common`,
      sql: `SELECT s.${left}, s.${right}, COUNT(*) AS common
FROM ${pairs} s JOIN ${name}_elements x ON x.position = s.${left} JOIN ${sameSide ? `${name}_elements` : `${name}_right_elements`} y ON y.position = s.${right} AND y.h = x.h
GROUP BY s.${left}, s.${right}`,
    },
  ];
  return { steps, rightSets };
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
