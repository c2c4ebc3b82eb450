/**
 * A line of `gpudedup query`'s JSON Lines (src/pipeline/index/indexQuery.ts), with
 * no node: import: the tab writes the same lines when it checks files
 * against a saved index.
 *
 *   {"id":"doc-7","matches":[{"id":"a12","similarity":0.93125,"exact":0.912}]}
 */
import { sixDecimals } from '../format.js';
import type { IndexMatch } from './types.js';


/** One document's line: its id and its matches (similarities to six decimals, as dedup's tables). */
export function queryLine(id: string, matches: readonly IndexMatch[]): string {
  const shown = matches.map((m) => (m.exact === undefined ? { id: m.id, similarity: sixDecimals(m.similarity) } : { id: m.id, similarity: sixDecimals(m.similarity), exact: sixDecimals(m.exact) }));
  return JSON.stringify({ id, matches: shown });
}
