/**
 * Shingle sets for the datasketch schemes (the TypeScript reference; shingleDocument
 * computes the same in the wasm shingle kernel): each shingle's value is SHA-1 of its
 * UTF-8 bytes, as datasketch's default hashfunc computes it after a user's
 * `update_batch([s.encode("utf-8") for s in shingles])`: sha1_hash32 (the digest's
 * first 4 bytes, little-endian; (value, 0) pairs) or sha1_hash64 (the first 8).
 *
 * The shingle strings (what such a user feeds, docs/signatures.md, "Signing for datasketch"):
 * - word: n consecutive tokens joined by single spaces (no trailing space, unlike
 *   the FNV-1a shingles of our own schemes); fewer than n tokens give one shingle of all;
 * - char: the tokens joined by single spaces, windows of n consecutive code points;
 *   fewer than n code points give one shingle of all;
 * - auto: as for the other schemes (shingles.ts: chooseMode).
 * Tokens are those of text/normalize.ts; a lone surrogate is encoded as U+FFFD.
 */
import { tokenize, type NormalizeOptions } from '../text/normalize.js';
import { sha1WindowsReference } from './sha1.js';

/** The per-shingle hash: FNV-1a 64 mod P (our schemes, the default) or SHA-1 for datasketch's. */
export type ShingleHash = 'fnv1a64' | 'sha1-32' | 'sha1-64';

interface Windowed {
  readonly bytes: Uint8Array;
  /** (start, end) byte offsets of each shingle, in window order. */
  readonly windows: Uint32Array;
}

const encoder = new TextEncoder();

/** The UTF-8 bytes of the tokens joined by single spaces, and each word n-gram's byte range. */
export function wordWindows(tokens: readonly string[], n: number): Windowed {
  const bytes = encoder.encode(tokens.join(' '));
  // ends[t]: where token t ends; the next one starts one byte (the space) later.
  const ends = new Uint32Array(tokens.length);
  let t = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x20) ends[t++] = i;
  ends[t] = bytes.length;
  const count = Math.max(1, tokens.length - n + 1);
  const span = Math.min(n, tokens.length);
  const windows = new Uint32Array(2 * count);
  for (let w = 0; w < count; w++) {
    windows[2 * w] = w === 0 ? 0 : ends[w - 1] + 1;
    windows[2 * w + 1] = ends[w + span - 1];
  }
  return { bytes, windows };
}

/** The UTF-8 bytes of the tokens joined by single spaces, and each char n-gram's byte range. */
export function charWindows(tokens: readonly string[], n: number): Windowed {
  const bytes = encoder.encode(tokens.join(' '));
  const starts: number[] = [];
  for (let i = 0; i < bytes.length; i++) if ((bytes[i] & 0xc0) !== 0x80) starts.push(i);
  starts.push(bytes.length);
  const codePoints = starts.length - 1;
  const count = Math.max(1, codePoints - n + 1);
  const span = Math.min(n, codePoints);
  const windows = new Uint32Array(2 * count);
  for (let w = 0; w < count; w++) {
    windows[2 * w] = starts[w];
    windows[2 * w + 1] = starts[w + span];
  }
  return { bytes, windows };
}

export interface Sha1ShingleOptions {
  readonly mode: 'word' | 'char';
  readonly n: number;
  readonly hash: 'sha1-32' | 'sha1-64';
}

/**
 * SHA-1 values of every window of the tokens, in window order with repeats, in
 * TypeScript: the reference of the wasm shingle kernel, which hashes the same
 * windows of its compacted text (wasm/shingle.wat, flag bits 2 and 4).
 */
export function sha1WindowHashes(tokens: readonly string[], options: Sha1ShingleOptions): Uint32Array {
  if (tokens.length === 0) return new Uint32Array(0);
  const { bytes, windows } = options.mode === 'word' ? wordWindows(tokens, options.n) : charWindows(tokens, options.n);
  return sha1WindowsReference(bytes, windows, options.hash === 'sha1-64');
}

/**
 * The shingle strings of a document, in window order with repeats: what a
 * datasketch user passes (UTF-8 encoded) to update_batch. For tests and examples.
 */
export function shingleStrings(
  text: string,
  options: { mode: 'word' | 'char'; n: number; normalize: NormalizeOptions },
): string[] {
  const tokens = tokenize(text, options.normalize);
  if (tokens.length === 0) return [];
  const units = options.mode === 'word' ? tokens : Array.from(tokens.join(' '));
  const joiner = options.mode === 'word' ? ' ' : '';
  const span = Math.min(options.n, units.length);
  return Array.from({ length: Math.max(1, units.length - options.n + 1) }, (_, w) =>
    units.slice(w, w + span).join(joiner),
  );
}
