/**
 * A line of `gpudedup query`'s JSON Lines (src/pipeline/index/indexQuery.ts), with
 * no node: import: the tab writes the same lines when it checks files
 * against a saved index.
 *
 *   {"id":"doc-7","matches":[{"id":"a12","similarity":0.93125,"exact":0.912}]}
 *
 * Containment queries add "containment" (estimated) and "exactContainment".
 */
import { sixDecimals } from '../format.js';
import type { IndexMatch } from './types.js';


/** One document's line: its id and its matches (similarities to six decimals, as dedup's tables). */
export function queryLine(id: string, matches: readonly IndexMatch[]): string {
  return JSON.stringify({ id, matches: matches.map(shownMatch) });
}

/** A match with its values to six decimals; each field only where measured. */
function shownMatch(m: IndexMatch): Record<string, string | number> {
  const shown: Record<string, string | number> = { id: m.id, similarity: sixDecimals(m.similarity) };
  if (m.exact !== undefined) shown.exact = sixDecimals(m.exact);
  if (m.containment !== undefined) shown.containment = sixDecimals(m.containment);
  if (m.exactContainment !== undefined) shown.exactContainment = sixDecimals(m.exactContainment);
  return shown;
}
