/**
 * Which parts of a document a second one shares, shingle by shingle: for the
 * browser app's side-by-side view. The document is shown as the shingler sees
 * it (normalized tokens joined by single spaces); a token (word mode) or code
 * point (character mode) is marked shared when a shingle covering it is in the
 * other document's set.
 */
import { tokenize } from '../text/normalize.js';
import { chooseMode, charShingles, shingleDocument, wordShingles, type ShingleOptions } from './shingles.js';

export interface Segment {
  readonly text: string;
  readonly shared: boolean;
}

export interface SharedView {
  readonly mode: 'word' | 'char';
  /** Runs of the normalized text, alternating shared and not. */
  readonly segments: Segment[];
  /** Distinct shingles of this document, and how many of them the other has. */
  readonly shingles: number;
  readonly sharedShingles: number;
}

const key = (set: Uint32Array, i: number): string => `${set[2 * i]}:${set[2 * i + 1]}`;

export function sharedShingleView(text: string, other: Uint32Array, options: ShingleOptions): SharedView {
  const tokens = tokenize(text, options.normalize);
  const mode = options.mode === 'auto' ? chooseMode(tokens, options.n) : options.mode;
  const otherKeys = new Set<string>();
  for (let i = 0; i < other.length / 2; i++) otherKeys.add(key(other, i));
  const own = shingleDocument(text, options);
  let sharedShingles = 0;
  for (let i = 0; i < own.length / 2; i++) if (otherKeys.has(key(own, i))) sharedShingles++;
  if (tokens.length === 0) return { mode, segments: [], shingles: 0, sharedShingles: 0 };

  // Units are tokens (word mode) or code points of the joined text (character mode); window w covers units w …
  // w+span−1.
  const units = mode === 'word' ? tokens : Array.from(tokens.join(' '));
  const windows = mode === 'word' ? wordShingles(tokens, options.n) : charShingles(tokens, options.n);
  const span = Math.min(options.n, units.length);
  const shared = new Uint8Array(units.length);
  for (let w = 0; w < windows.length / 2; w++) {
    if (!otherKeys.has(key(windows, w))) continue;
    for (let u = w; u < w + span; u++) shared[u] = 1;
  }
  const separator = mode === 'word' ? ' ' : '';
  const segments: Segment[] = [];
  let start = 0;
  for (let u = 1; u <= units.length; u++) {
    if (u < units.length && shared[u] === shared[start]) continue;
    const last = u === units.length;
    segments.push({
      text: units.slice(start, u).join(separator) + (last ? '' : separator),
      shared: shared[start] === 1,
    });
    start = u;
  }
  return { mode, segments, shingles: own.length / 2, sharedShingles };
}
