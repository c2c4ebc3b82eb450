/**
 * The exact pass of the cluster plan (clusterSql.ts, chainGuardSql.ts, referenceSql.ts): a margin pair's exact
 * similarity from the two shingle lists, counted as the engine does it best (ExactPass), or from the texts on the host.
 */
import { doubleSql, type SqlPairRule, type SqlStep } from './sqlParts.js';

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
  // The columns named: joined to the DISTINCT pairs, the whole view was read (every slot and band: 2.9 s of CPU at
  // 400 k pairs of the 1 M shards, against 0.5 s so; DuckDB 1.5).
  const ranges = '(SELECT position, text_file, text_start, text_bytes FROM shards)';
  return [
    {
      name: `${name}_host`,
      sql: `SELECT ${double(`p.${left}`, 'l')}, ${double(`p.${right}`, 'r')}, ${range('x', 'x')}, ${range('y', 'y')}
FROM (SELECT DISTINCT ${left}, ${right} FROM ${pairs}) p JOIN ${ranges} x ON x.position = p.${left} JOIN ${ranges} y ON y.position = p.${right}`,
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
