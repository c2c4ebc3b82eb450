/**
 * The plan's `scored` step (clusterSql.ts): every candidate pair with the count of slots its two documents agree on.
 * Each pair joins two documents' k slots, so one side of a join holds k slots a document: DuckDB builds its hash
 * table on the shards (the side it estimates smaller), about (k + 5) × 8 bytes a document, 10.6 GB at 10 M documents
 * and k = 128, past an 8.8 GB memory_limit: its external hash join then spilled 13 GB and took most of the setup.
 * Cut at positions, each part joins only its own run of documents on that side (the pairs whose later document `b`
 * lies in [lo, hi)), and `scored` is the parts' union: a hash table of a run a part, the shards read once a part.
 */
import { agreementSql, type SqlPairRule, type SqlStep } from './sqlParts.js';

/**
 * `scored` (a, b, agree) from `candidates` (a < b) and `shards`, in one join or, with `cuts` (ascending positions, the
 * first at most the least position, the last above the greatest), in a part for each run [cuts[i], cuts[i + 1]).
 */
export function scoredSteps(k: number, rule: SqlPairRule, cuts?: readonly number[]): SqlStep[] {
  const agree = `${agreementSql(k, rule)} AS agree`;
  if (cuts === undefined || cuts.length <= 2)
    return [
      {
        name: 'scored',
        sql: `SELECT c.a, c.b, ${agree} FROM candidates c JOIN shards x ON x.position = c.a JOIN shards y ON y.position = c.b`,
      },
    ];
  // Written so that each join builds on its right side: the part's pairs, then its run of documents (asWritten).
  const parts: SqlStep[] = cuts.slice(0, -1).map((lo, i) => ({
    name: `scored_${i}`,
    sql: `SELECT c.a, c.b, ${agree}
FROM shards x JOIN candidates c ON x.position = c.a
JOIN (SELECT * FROM shards WHERE position >= ${lo} AND position < ${cuts[i + 1]}) y ON y.position = c.b
WHERE c.b >= ${lo} AND c.b < ${cuts[i + 1]}`,
    asWritten: true,
  }));
  return [
    ...parts,
    { name: 'scored', sql: parts.map((p) => `SELECT a, b, agree FROM ${p.name}`).join('\nUNION ALL\n'), view: true },
  ];
}
