/**
 * The representative check of src/clusters/clustering.ts (`--cluster-check
 * representative`) as rounds of SQL, driven by the engine's loop.
 *
 * State: `check_members` (node, grp, attempts), the exact groups still to be
 * checked, by group of the component being split; `settled` (node, rep), each
 * decided group's representative. A round, for every group at once:
 * 1. its representative is its preferred member (`group_pref`: the keep
 *    policy's score of the group's preferred document, then that document's
 *    position, as DocumentTable.groupComparator orders groups);
 * 2. a member compared with R representatives already is kept alone
 *    (exhausted); every other member is compared with the representative, the
 *    way pairs are decided (the `check` rule at t − δ) and joins it on a pass;
 * 3. the members that failed split into the pieces the verified pairs connect
 *    among them (a large-star / small-star loop over those pairs): a piece of
 *    one is kept alone, the others are the next round's groups.
 * Groups never share members, so doing them all at once, round by round,
 * gives what clustering.ts gets one group at a time. A member is in at most R
 * + 1 groups, so there are at most R + 1 rounds.
 */
import { agreementSql, hasMargin, starLoop, type PlanOp, type SqlPairRule } from './sqlParts.js';
import { exactPassSteps, type ExactPass } from './exactPassSql.js';

export interface ChainGuardOptions {
  readonly k: number;
  readonly rule: SqlPairRule;
  readonly maxRepresentatives: number;
  /** How the exact pass counts common shingles (exactPassSql.ts). */
  readonly exactPass?: ExactPass;
}

/**
 * Ops run after the components loop: `edges` is then a forest of stars over
 * the groups in pairs, and `verified_edges` (src > dst) the verified pairs.
 * Leaves `settled` holding every such group.
 */
export function chainGuardOps(options: ChainGuardOptions): PlanOp[] {
  const { k, rule, maxRepresentatives: r } = options;
  return [
    {
      name: 'check_members',
      sql:
        `SELECT src AS node, dst AS grp, 0 AS attempts FROM edges UNION ALL SELECT DISTINCT dst AS node, dst AS ` +
        `grp, 0 AS attempts FROM edges`,
    },
    { name: 'settled', sql: `SELECT node, grp AS rep FROM check_members WHERE 1 = 0` },
    {
      loop: 'check',
      body: [...compareOps(k, rule, r, options.exactPass), ...splitOps(rule, r)],
      until: `SELECT COUNT(*) AS n FROM check_members`,
    },
  ];
}

/** A round's steps 1 and 2: each group's representative, its members compared with it. */
function compareOps(k: number, rule: SqlPairRule, r: number, exactPass?: ExactPass): PlanOp[] {
  const passedExact: PlanOp[] = hasMargin(rule)
    ? exactPassSteps('check_exact', 'check_scored', 'rep', 'node', 'node', rule, 'shards', exactPass)
    : [{ name: 'check_exact', sql: `SELECT node FROM check_scored WHERE 1 = 0` }];
  return [
    {
      name: 'check_ranked',
      sql: `SELECT m.node, m.grp, m.attempts, ROW_NUMBER() OVER (PARTITION BY m.grp ORDER BY p.score DESC, p.pref) AS rn
FROM check_members m JOIN group_pref p ON p.node = m.node`,
    },
    { name: 'check_reps', sql: `SELECT grp, node AS rep FROM check_ranked WHERE rn = 1` },
    {
      name: 'check_pairs',
      sql: `SELECT m.node, m.grp, m.attempts + 1 AS attempts, r.rep, LEAST(r.rep, m.node) AS lo, GREATEST(r.rep, m.node) AS hi
FROM check_ranked m JOIN check_reps r ON r.grp = m.grp WHERE m.rn > 1 AND m.attempts < ${r}`,
    },
    // A pair's agreement where it was a candidate (scored holds each candidate once, a < b); from the slots of the
    // others' documents (pairs a chain joined, few): joined to the shards whole, every slot of both was read again
    // (3.8 CPU-s at 1 M).
    {
      name: 'check_unscored',
      sql: `SELECT p.node, p.grp, p.attempts, p.rep FROM check_pairs p LEFT JOIN scored s ON s.a = p.lo AND s.b = p.hi WHERE s.a IS NULL`,
    },
    {
      name: 'check_slots',
      sql: `SELECT position, ${slotColumns(k, rule)} FROM shards WHERE position IN (SELECT rep FROM check_unscored UNION SELECT node FROM check_unscored)`,
    },
    {
      name: 'check_scored',
      sql: `SELECT p.node, p.grp, p.attempts, p.rep, s.agree FROM check_pairs p JOIN scored s ON s.a = p.lo AND s.b = p.hi
UNION ALL
SELECT u.node, u.grp, u.attempts, u.rep, ${agreementSql(k, rule)} AS agree
FROM check_unscored u JOIN check_slots x ON x.position = u.rep JOIN check_slots y ON y.position = u.node`,
    },
    ...passedExact,
    {
      name: 'check_failed',
      sql:
        `SELECT s.node, s.grp, s.attempts FROM check_scored s LEFT JOIN check_exact e ON e.node = s.node WHERE ` +
        `s.agree < ${rule.acceptFrom} AND e.node IS NULL`,
    },
  ];
}

/** A round's step 3: the failed members' pieces, the next round's groups; the rest settled. */
function splitOps(rule: SqlPairRule, r: number): PlanOp[] {
  return [
    // The verified pairs among the failed members of one group, and the pieces they connect.
    {
      name: 'piece_edges',
      sql:
        `SELECT e.src, e.dst FROM verified_edges e JOIN check_failed f ON f.node = e.src JOIN check_failed g ` +
        `ON g.node = e.dst WHERE f.grp = g.grp`,
    },
    starLoop('piece_', 'pieces'),
    {
      name: 'piece_nodes',
      sql:
        `SELECT src AS node, dst AS grp FROM piece_edges UNION ALL SELECT DISTINCT dst AS node, dst AS grp ` +
        `FROM piece_edges`,
    },
    {
      name: 'settled_next',
      sql: `SELECT node, rep FROM settled
UNION ALL SELECT rep AS node, rep FROM check_reps
UNION ALL SELECT node, node AS rep FROM check_ranked WHERE rn > 1 AND attempts >= ${r}
UNION ALL SELECT s.node, s.rep FROM check_scored s LEFT JOIN check_exact e ON e.node = s.node WHERE s.agree >= ${rule.acceptFrom} OR e.node IS NOT NULL
UNION ALL SELECT f.node, f.node AS rep FROM check_failed f LEFT JOIN piece_nodes p ON p.node = f.node WHERE p.node IS NULL`,
    },
    { name: 'settled', sql: `SELECT node, rep FROM settled_next` },
    {
      name: 'check_members',
      sql: `SELECT f.node, p.grp, f.attempts FROM check_failed f JOIN piece_nodes p ON p.node = f.node`,
    },
  ];
}

/** The slot columns agreementSql reads: slot_0 alone for SimHash. */
function slotColumns(k: number, rule: SqlPairRule): string {
  return Array.from({ length: rule.simhash === undefined ? k : 1 }, (_, i) => `slot_${i}`).join(', ');
}
