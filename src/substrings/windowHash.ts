/**
 * Rolling hashes of every window of `length` bytes inside a document: two
 * polynomial lanes mod 2^32 (bases A and B), rolled in O(1) per byte. A hash
 * only proposes candidates: equal windows always hash equal (so none is
 * missed), and every group of equal hashes is compared byte for byte before
 * anything is reported (repeatGroups.ts), so a collision costs time, never a
 * wrong span. `key` is lane A mixed (murmur3's finalizer) for an even spread
 * over the partitions of the key space.
 */
import type { CorpusText } from './corpusText.js';

const BASE_A = 0x01000193; // odd: multiplication by it is a bijection mod 2^32
const BASE_B = 0x5bd1e995;

export function mixKey(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function power(base: number, exponent: number): number {
  let result = 1;
  for (let i = 0; i < exponent; i++) result = Math.imul(result, base);
  return result;
}

/** What rolling a window of `length` bytes subtracts per outgoing byte: each lane's base^(length − 1) mod 2^32. */
export function dropFactors(length: number): { dropA: number; dropB: number } {
  return { dropA: power(BASE_A, length - 1), dropB: power(BASE_B, length - 1) };
}

/**
 * Calls `visit(key, laneB, position)` for every window of documents [firstDocument, endDocument), in position order.
 */
export function forEachWindow(
  corpus: CorpusText,
  length: number,
  firstDocument: number,
  endDocument: number,
  visit: (key: number, laneB: number, position: number) => void,
): void {
  const { bytes, starts } = corpus;
  const { dropA, dropB } = dropFactors(length);
  for (let d = firstDocument; d < endDocument; d++) {
    const start = starts[d];
    const end = starts[d + 1];
    if (end - start < length) continue;
    let a = 0;
    let b = 0;
    for (let i = start; i < start + length; i++) {
      a = (Math.imul(a, BASE_A) + bytes[i]) | 0;
      b = (Math.imul(b, BASE_B) + bytes[i]) | 0;
    }
    visit(mixKey(a), b >>> 0, start);
    for (let p = start + 1; p + length <= end; p++) {
      const out = bytes[p - 1];
      const next = bytes[p + length - 1];
      a = (Math.imul((a - Math.imul(out, dropA)) | 0, BASE_A) + next) | 0;
      b = (Math.imul((b - Math.imul(out, dropB)) | 0, BASE_B) + next) | 0;
      visit(mixKey(a), b >>> 0, p);
    }
  }
}

/** The key and lane of the one window at `position`, as forEachWindow gives them. */
export function windowHashAt(bytes: Uint8Array, position: number, length: number): { key: number; lane: number } {
  let a = 0;
  let b = 0;
  for (let i = position; i < position + length; i++) {
    a = (Math.imul(a, BASE_A) + bytes[i]) | 0;
    b = (Math.imul(b, BASE_B) + bytes[i]) | 0;
  }
  return { key: mixKey(a), lane: b >>> 0 };
}
