// The shingle sets of the first pass's kernel (unitKernel.as.ts): the windows of the
// joined text at `norm`, hashed by FNV-1a 64 mod 2^61 − 1 or SHA-1, deduplicated in
// first-seen order.
import { sha1, sha1x4, SHA1X4_OUT } from './sha1.generated.as';
import { flags, norm, normLen, shingleN, starts, table, tokenCount } from './unitState.as';

const P: u64 = 0x1fffffffffffffff;
const FNV_BASIS: u64 = 0xcbf29ce484222325;
const FNV_PRIME: u64 = 0x100000001b3;

/** FNV-1a 64 continued from h over bytes [from, to). */
@inline function fnvFrom(h: u64, from: usize, to: usize): u64 {
  for (let p = from; p < to; p++) h = (h ^ <u64>load<u8>(p)) * FNV_PRIME;
  return h;
}

/** v mod P: v ≡ (v & P) + (v >> 61) < P + 8, then one conditional subtraction. */
@inline function modP(h: u64): u64 {
  h = (h & P) + (h >> 61);
  return h >= P ? h - P : h;
}

@inline function fnv(from: usize, to: usize): u64 {
  return modP(fnvFrom(FNV_BASIS, from, to));
}

// The set being deduplicated: `kept` values so far, a table of their indexes + 1; with
// count weighting (flag bit 5) each slot's repeats so far in a second table after it.
let kept: i32 = 0;
let tableMask: i32 = 0;

const PHI: u64 = 0x9e3779b97f4a7c15;

/** Element (g, j) of count weighting, j ≥ 1 (math/weightedElement.ts): splitmix64(g + j·φ) mod P. */
@inline function weightedElement(g: u64, j: u32): u64 {
  let z = g + <u64>j * PHI + PHI;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return modP(z ^ (z >> 31));
}

/**
 * Appends h to the set at `out` unless it is there already (first-seen order); with count
 * weighting a repeat is appended as its next element (h, j) instead.
 */
@inline function keep(out: usize, h: u64): void {
  let slot = <i32>((<u32>(h ^ (h >> 29)) * 0x9e3779b1) >> 7) & tableMask;
  let j = load<i32>(table + (<usize>slot << 2));
  while (j != 0 && load<u64>(out + (<usize>(j - 1) << 3)) != h) {
    slot = (slot + 1) & tableMask;
    j = load<i32>(table + (<usize>slot << 2));
  }
  if (j == 0) {
    store<i32>(table + (<usize>slot << 2), kept + 1);
    store<u64>(out + (<usize>kept << 3), h);
    kept++;
  } else if ((flags & 32) != 0) {
    const at = table + ((<usize>(tableMask + 1 + slot)) << 2);
    const repeat = load<u32>(at) + 1;
    store<u32>(at, repeat);
    store<u64>(out + (<usize>kept << 3), weightedElement(h, repeat));
    kept++;
  }
}

/** An empty table for the set of a document of `windows` windows (and its repeat counts, with count weighting). */
@inline function clearTable(windows: i32): void {
  // At most a quarter full: a slot taken at the first probe is a mispredicted branch, and clearing costs little.
  let capacity = 4;
  while (capacity < windows * 4) capacity <<= 1;
  tableMask = capacity - 1;
  memory.fill(table, 0, <usize>capacity << ((flags & 32) != 0 ? 3 : 2));
  kept = 0;
}

/**
 * The window hashes of the joined tokens at `norm`, deduplicated in first-seen
 * order, written at `out`; returns how many. Word windows: n tokens, each followed
 * by one space; char windows: n code points of the joined text. Fewer tokens (code
 * points) than n give one window of all of them. With flag bit 3 the hashes are
 * SHA-1's (shaWindows).
 */
export function shingle(out: usize): i32 {
  const char = (flags & 2) != 0;
  let units = tokenCount;
  if (char) {
    // Code point starts replace token starts.
    units = 0;
    for (let i = 0; i < normLen; i++) {
      if ((load<u8>(norm + <usize>i) & 0xc0) != 0x80) {
        store<u32>(starts + (<usize>units << 2), <u32>i);
        units++;
      }
    }
    store<u32>(starts + (<usize>units << 2), <u32>normLen);
  } else {
    store<u8>(norm + <usize>normLen, 0x20);
    store<u32>(starts + (<usize>units << 2), <u32>(normLen + 1));
  }
  const span = shingleN < units ? shingleN : units;
  const windows = units - span + 1;
  if ((flags & 8) != 0) return shaWindows(out, span, windows, char ? 0 : 1);
  if (windows == 1) {
    store<u64>(out, fnv(norm + <usize>load<u32>(starts), norm + <usize>load<u32>(starts + (<usize>span << 2))));
    return 1;
  }
  clearTable(windows);
  if (!char && span == 5) return fiveTokenWindows(out, units);
  let w = 0;
  // Four windows at a time: four independent multiply chains instead of one (FNV is latency-bound).
  for (; w + 4 <= windows; w += 4) {
    const s0 = norm + <usize>load<u32>(starts + (<usize>w << 2));
    const s1 = norm + <usize>load<u32>(starts + (<usize>(w + 1) << 2));
    const s2 = norm + <usize>load<u32>(starts + (<usize>(w + 2) << 2));
    const s3 = norm + <usize>load<u32>(starts + (<usize>(w + 3) << 2));
    const e0 = norm + <usize>load<u32>(starts + (<usize>(w + span) << 2));
    const e1 = norm + <usize>load<u32>(starts + (<usize>(w + span + 1) << 2));
    const e2 = norm + <usize>load<u32>(starts + (<usize>(w + span + 2) << 2));
    const e3 = norm + <usize>load<u32>(starts + (<usize>(w + span + 3) << 2));
    let m = e0 - s0;
    if (e1 - s1 < m) m = e1 - s1;
    if (e2 - s2 < m) m = e2 - s2;
    if (e3 - s3 < m) m = e3 - s3;
    let h0: u64 = FNV_BASIS, h1: u64 = FNV_BASIS, h2: u64 = FNV_BASIS, h3: u64 = FNV_BASIS;
    for (let j: usize = 0; j < m; j++) {
      h0 = (h0 ^ <u64>load<u8>(s0 + j)) * FNV_PRIME;
      h1 = (h1 ^ <u64>load<u8>(s1 + j)) * FNV_PRIME;
      h2 = (h2 ^ <u64>load<u8>(s2 + j)) * FNV_PRIME;
      h3 = (h3 ^ <u64>load<u8>(s3 + j)) * FNV_PRIME;
    }
    keep(out, modP(fnvFrom(h0, s0 + m, e0)));
    keep(out, modP(fnvFrom(h1, s1 + m, e1)));
    keep(out, modP(fnvFrom(h2, s2 + m, e2)));
    keep(out, modP(fnvFrom(h3, s3 + m, e3)));
  }
  for (; w < windows; w++) {
    keep(out, fnv(norm + <usize>load<u32>(starts + (<usize>w << 2)), norm + <usize>load<u32>(starts + (<usize>(w + span) << 2))));
  }
  return kept;
}

/**
 * The windows of five tokens in one pass over the text: the five windows that hold a token are hashed side by side
 * as its bytes (and its space) go by, five independent multiply chains with no window's tail left to run alone;
 * after token t, window t − 4 is whole and kept, and a new one starts. Hashes and order as shingle's loop above.
 */
function fiveTokenWindows(out: usize, units: i32): i32 {
  // h0 is the window of tokens t − 4.., h4 that of t..; those before token 0 are hashed and never kept.
  let h0: u64 = FNV_BASIS, h1: u64 = FNV_BASIS, h2: u64 = FNV_BASIS, h3: u64 = FNV_BASIS, h4: u64 = FNV_BASIS;
  let p = norm + <usize>load<u32>(starts);
  for (let t = 0; t < units; t++) {
    const end = norm + <usize>load<u32>(starts + (<usize>(t + 1) << 2));
    for (; p < end; p++) {
      const c = <u64>load<u8>(p);
      h0 = (h0 ^ c) * FNV_PRIME;
      h1 = (h1 ^ c) * FNV_PRIME;
      h2 = (h2 ^ c) * FNV_PRIME;
      h3 = (h3 ^ c) * FNV_PRIME;
      h4 = (h4 ^ c) * FNV_PRIME;
    }
    if (t >= 4) keep(out, modP(h0));
    h0 = h1;
    h1 = h2;
    h2 = h3;
    h3 = h4;
    h4 = FNV_BASIS;
  }
  return kept;
}

// Windows waiting for a sha1x4 call: (index, start offset at `norm`, length) each.
const LANES: usize = memory.data(48, 16);

/**
 * shingle's SHA-1 windows (datasketch's sha1_hash32, or with flag bit 4 sha1_hash64):
 * the same windows as FNV's, less `trail` bytes (a word window's trailing space).
 * Each window's value goes to out[w] first, those of at most 55 bytes (one padded
 * block: a word 5-gram of ordinary words, any char window of n ≤ 13) four at a time
 * in SIMD lanes, longer ones one by one; then the set is kept in place, in window order.
 */
function shaWindows(out: usize, span: i32, windows: i32, trail: i32): i32 {
  const wide = (flags & 16) != 0;
  let pending = 0;
  let w = 0;
  while (w < windows) {
    const start = load<u32>(starts + (<usize>w << 2));
    const len = <i32>(load<u32>(starts + (<usize>(w + span) << 2)) - start) - trail;
    if (len <= 55) {
      const lane = LANES + (<usize>pending * 12);
      store<i32>(lane, w);
      store<u32>(lane, start, 4);
      store<i32>(lane, len, 8);
      pending++;
      if (pending == 4) {
        shaLanes(out, wide);
        pending = 0;
      }
    } else store<u64>(out + (<usize>w << 3), sha1(norm + <usize>start, len, wide));
    w++;
  }
  if (pending > 0) {
    // The lanes left over repeat lane 0 (its value written again).
    for (let j = pending; j < 4; j++) memory.copy(LANES + <usize>j * 12, LANES, 12);
    shaLanes(out, wide);
  }
  if (windows == 1) return 1;
  clearTable(windows);
  for (let v = 0; v < windows; v++) keep(out, load<u64>(out + (<usize>v << 3)));
  return kept;
}

/** The four windows in LANES hashed side by side, each value to out[index]. */
function shaLanes(out: usize, wide: bool): void {
  sha1x4(
    norm + <usize>load<u32>(LANES, 4), load<i32>(LANES, 8),
    norm + <usize>load<u32>(LANES, 16), load<i32>(LANES, 20),
    norm + <usize>load<u32>(LANES, 28), load<i32>(LANES, 32),
    norm + <usize>load<u32>(LANES, 40), load<i32>(LANES, 44),
    wide,
  );
  store<u64>(out + (<usize>load<i32>(LANES) << 3), load<u64>(SHA1X4_OUT));
  store<u64>(out + (<usize>load<i32>(LANES, 12) << 3), load<u64>(SHA1X4_OUT, 8));
  store<u64>(out + (<usize>load<i32>(LANES, 24) << 3), load<u64>(SHA1X4_OUT, 16));
  store<u64>(out + (<usize>load<i32>(LANES, 36) << 3), load<u64>(SHA1X4_OUT, 24));
}

