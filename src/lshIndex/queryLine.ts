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

/** Matches as every output shows them (the CLI's lines, serve's replies): values to six decimals, as dedup's tables. */
export function shownMatches(matches: readonly IndexMatch[]): IndexMatch[] {
  return matches.map(shownMatch);
}

/** One document's line: its id and its matches. */
export function queryLine(id: string, matches: readonly IndexMatch[]): string {
  return JSON.stringify({ id, matches: shownMatches(matches) });
}

/** A match with its values to six decimals; each field only where measured. */
function shownMatch(m: IndexMatch): IndexMatch {
  const shown: { -readonly [K in keyof IndexMatch]: IndexMatch[K] } = {
    id: m.id,
    similarity: sixDecimals(m.similarity),
  };
  if (m.exact !== undefined) shown.exact = sixDecimals(m.exact);
  if (m.containment !== undefined) shown.containment = sixDecimals(m.containment);
  if (m.exactContainment !== undefined) shown.exactContainment = sixDecimals(m.exactContainment);
  return shown;
}
