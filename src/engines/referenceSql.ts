/**
 * Decontamination (`cluster --against REF.parquet`) as SQL: the corpus
 * groups that are near-duplicates of a reference document, as
 * src/verify/decontaminate.ts finds them. Corpus groups and reference
 * documents are banded together, but only corpus × reference pairs are made:
 * all of them in a bucket of up to `maxBucketPairs` members, and in a bigger
 * one each corpus member with the bucket's first `anchors` reference
 * documents (crossPairsInBucket of src/bands/candidates.ts). They are verified
 * by the same rule as corpus pairs. The relation `reference` is the reference
 * shards (`sign --shard 1/1`), read by position; every reference document
 * counts, even one repeating another, and empty ones never match.
 */
import { agreementSql, hasMargin, type SqlPairRule, type SqlStep } from './sqlParts.js';
import { exactPassSteps, type ExactPass } from './exactPassSql.js';

export interface ReferenceSqlOptions {
  readonly k: number;
  readonly bands: number;
  readonly maxBucketPairs: number;
  /** Reference members a corpus member of a big bucket is paired with (referenceAnchors). */
  readonly anchors: number;
  readonly rule: SqlPairRule;
  /** How the exact pass counts common shingles (exactPassSql.ts; the reference always has lists: never `host`). */
  readonly exactPass?: ExactPass;
}

/** Steps after `exact_groups` and `all_group_bands` (every group's band keys): leave `contaminated` (node). */
export function referenceSteps(o: ReferenceSqlOptions): SqlStep[] {
  const bandColumns = Array.from({ length: o.bands }, (_, j) => `band_${j}`);
  const members = (table: string, isReference: number, where = ''): string =>
    bandColumns
      .map(
        (c, j) =>
          `SELECT CAST(${j} AS INT) AS band, ${c} AS bucket_key, ${isReference} AS is_ref, ` +
          `${table === 'reference' ? 'position' : 'node'} AS node FROM ${table}${where}`,
      )
      .join('\nUNION ALL\n');
  return [
    {
      name: 'cross_members',
      sql: `${members('all_group_bands', 0)}\nUNION ALL\n${members('reference', 1, ' WHERE exact_hi IS NOT NULL')}`,
    },
    // Each bucket's size, and each member's rank among the bucket's members of its side (references in reference
    // order).
    {
      name: 'cross_buckets',
      sql: `SELECT band, bucket_key, is_ref, node,
       COUNT(*) OVER (PARTITION BY band, bucket_key) AS size,
       ROW_NUMBER() OVER (PARTITION BY band, bucket_key, is_ref ORDER BY node) AS rn
FROM cross_members`,
    },
    {
      name: 'cross_candidates',
      sql: `SELECT DISTINCT x.node AS a, y.node AS r FROM cross_buckets x JOIN cross_buckets y ON x.band = y.band AND x.bucket_key = y.bucket_key
WHERE x.is_ref = 0 AND y.is_ref = 1 AND (x.size <= ${o.maxBucketPairs} OR y.rn <= ${o.anchors})`,
    },
    {
      name: 'cross_scored',
      sql:
        `SELECT c.a, c.r, ${agreementSql(o.k, o.rule)} AS agree FROM cross_candidates c JOIN shards x ON x.position = c.a ` +
        `JOIN reference y ON y.position = c.r`,
    },
    ...(hasMargin(o.rule)
      ? exactPassSteps(
          'cross_margin_passed',
          'cross_scored',
          'a',
          'r',
          'a',
          o.rule,
          'reference',
          o.exactPass === 'intersect' ? 'intersect' : 'join',
        )
      : []),
    {
      name: 'contaminated',
      sql:
        `SELECT DISTINCT a AS node FROM cross_scored WHERE agree >= ${o.rule.acceptFrom}` +
        (hasMargin(o.rule) ? `\nUNION\nSELECT a AS node FROM cross_margin_passed` : ''),
    },
  ];
}
