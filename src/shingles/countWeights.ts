/**
 * Count weighting (`--weights counts`): a document's window hashes, in window
 * order, become the elements (g, j) of math/weightedElement.ts — the first
 * occurrence of shingle g is g itself, its (j + 1)-th is element (g, j) — so a
 * shingle seen c times contributes c distinct elements and the plain Jaccard of
 * two such sets is the weighted Jaccard of their shingle counts. Every signing
 * backend then signs these sets as it signs any other: their kernels are unchanged.
 */
import { weightedElement } from '../math/weightedElement.js';
import { PairIndex } from './pairIndex.js';

/** The shingle weightings: plain sets, each shingle counted as often as it occurs, or weighed by idf (idfWeights.ts). */
export type ShingleWeights = 'none' | 'counts' | 'idf';

/** The count-weighted elements of window hashes `pairs` ((lo, hi) each), one per window, in window order. */
export function countElements(pairs: Uint32Array): Uint32Array {
  const count = pairs.length / 2;
  const out = new Uint32Array(pairs.length);
  if (count < 2) {
    out.set(pairs);
    return out;
  }
  const distinct = new Uint32Array(pairs.length);
  const seen = new PairIndex(distinct, count);
  const repeats = new Uint32Array(count);
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const lo = pairs[2 * i];
    const hi = pairs[2 * i + 1];
    distinct[2 * kept] = lo;
    distinct[2 * kept + 1] = hi;
    const first = seen.add(kept);
    if (first < 0) {
      kept++;
      out[2 * i] = lo;
      out[2 * i + 1] = hi;
    } else weightedElement(lo, hi, ++repeats[first], out, 2 * i);
  }
  return out;
}
