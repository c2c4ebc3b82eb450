/**
 * A line of `gpudedup query`'s JSON Lines (src/pipeline/indexQuery.ts), with
 * no node: import: the tab writes the same lines when it checks files
 * against a saved index.
 *
 *   {"id":"doc-7","matches":[{"id":"a12","similarity":0.93125,"exact":0.912}]}
 */
import type { IndexMatch } from '../lshIndex/types.js';

/** Six decimals, as dedup's tables write them. */
export function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** One document's line: its id and its matches (similarities to six decimals, as dedup's tables). */
export function queryLine(id: string, matches: readonly IndexMatch[]): string {
  const shown = matches.map((m) => (m.exact === undefined ? { id: m.id, similarity: round(m.similarity) } : { id: m.id, similarity: round(m.similarity), exact: round(m.exact) }));
  return JSON.stringify({ id, matches: shown });
}
