/**
 * When the on-disk index merges segments by itself (Lucene's LogMergePolicy,
 * by document count): each segment has a level, log_F of its rows; from the
 * oldest, segments whose level is within LEVEL_SPAN of the largest level
 * left form one group, and a group of F or more merges its first F into one
 * segment. Only adjacent segments merge, so documents keep the order they
 * were added in (ties between matches keep index order). Each merge at least
 * multiplies a document's segment size by about F, so a document is
 * rewritten about log_F(documents) times in all (bounded write
 * amplification), and an index holds about (F − 1) segments per level: a
 * few dozen, whatever the number of adds. Pure: diskIndex.ts runs the merge.
 */

/** Segments of one level merged at once (Lucene's default mergeFactor). */
export const MERGE_FACTOR = 10;

/** Levels within this much of a group's largest are that group (Lucene's LEVEL_LOG_SPAN). */
const LEVEL_SPAN = 0.75;

/** The first run [from, to) of adjacent segments to merge, given each segment's rows; undefined when none is due. */
export function mergeDue(rows: readonly number[], factor = MERGE_FACTOR): { from: number; to: number } | undefined {
  const levels = rows.map((n) => Math.log(Math.max(1, n)) / Math.log(factor));
  for (let start = 0; start < levels.length; ) {
    let largest = -Infinity;
    for (let i = start; i < levels.length; i++) largest = Math.max(largest, levels[i]);
    let upto = levels.length - 1;
    while (upto > start && levels[upto] < largest - LEVEL_SPAN) upto--;
    if (upto - start + 1 >= factor) return { from: start, to: start + factor };
    start = upto + 1;
  }
  return undefined;
}
