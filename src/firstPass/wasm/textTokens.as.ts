// The tokens of the text decoder (textDecode.as.ts) as it writes them at `norm`: how many began, whether one is open,
// whether a space is owed; and its 16-byte path through ASCII prose, which writes what the decoder's loop would.
import { input, norm, starts } from './unitState.as';

// The tokens begun, whether one is open, and whether a space is owed before the next.
export let tokens: i32 = 0;
export let inToken: bool = false;
export let pending: bool = false;

/** Opens a token at w unless one is open (after the space owed, if any); returns where writing goes on. */
@inline export function openToken(w: usize): usize {
  if (inToken) return w;
  if (pending) { store<u8>(w, 0x20); w++; pending = false; }
  store<u32>(starts + (<usize>tokens << 2), <u32>(w - norm));
  tokens++;
  inToken = true;
  return w;
}

/** White space ends the open token; a space is owed before the next if any came before. */
@inline export function closeToken(): void {
  inToken = false;
  pending = tokens > 0;
}

/**
 * Up to 16 bytes at i of printable ASCII, spaces and (in a JSON string) escaped quotes, written to w as the loop below
 * would write them byte by byte: lowercased, runs of spaces as one space before the next token (none before the
 * first), each \" as ", each token's start noted. It stops at the first byte it does not take (a byte to decode, a
 * quote that ends the string, another escape, the limit): the loop reads that one. Returns the bytes taken, the bytes
 * written (<< 8) and the escapes taken (<< 16). Most of a prose text is such bytes: simdjson's way, classify and branch little.
 */
@inline export function asciiBlock(i: i32, limit: i32, w: usize, json: bool): i32 {
  const v = v128.load(input + <usize>i);
  let bad = i8x16.bitmask(i8x16.ge_u(i8x16.sub(v, i8x16.splat(0x20)), i8x16.splat(0x5f)));
  let escapes = 0;
  if (json) {
    const quotes = i8x16.bitmask(i8x16.eq(v, i8x16.splat(0x22)));
    const backslashes = i8x16.bitmask(i8x16.eq(v, i8x16.splat(0x5c)));
    // Only a backslash right before a quote and that quote are taken (never \\, so never half an escape).
    bad |= (quotes & ~(backslashes << 1)) | (backslashes & ~(quotes >> 1));
    escapes = backslashes;
  }
  if (limit - i < 16) bad |= -1 << (limit - i);
  const lanes = ctz(bad | 0x10000);
  const taken = (1 << lanes) - 1;
  const spaces = i8x16.bitmask(i8x16.eq(v, i8x16.splat(0x20))) & taken;
  escapes &= taken;
  // Tokens open after a space (at lane 0 unless one is open); an escape's backslash opens its quote's token.
  const opens = taken & ~spaces & ((spaces << 1) | (inToken ? 0 : 1));
  let kept = (opens >> 1) & spaces;
  if (tokens == 0) kept &= ~((opens & -opens) >> 1);
  const drops = (spaces & ~kept) | escapes;
  const from = w;
  if ((opens & 1) != 0 && pending) { store<u8>(w, 0x20); w++; }
  const upper = i8x16.lt_u(i8x16.sub(v, i8x16.splat(0x41)), i8x16.splat(26));
  const lower = i8x16.add(v, v128.and(upper, i8x16.splat(0x20)));
  if (drops == 0) v128.store(w, lower);
  else compact(w, lower, drops);
  // The first four starts stored whether or not there are four (slots past the last are written again or unused):
  // the number of tokens in a block is no branch to mispredict. Blocks of more go on in the loop.
  const at = <u32>(w - norm);
  let m = opens;
  const slot = starts + (<usize>tokens << 2);
  store<u32>(slot, at + startLane(m, drops));
  m &= m - 1;
  store<u32>(slot, at + startLane(m, drops), 4);
  m &= m - 1;
  store<u32>(slot, at + startLane(m, drops), 8);
  m &= m - 1;
  store<u32>(slot, at + startLane(m, drops), 12);
  m &= m - 1;
  for (let t = tokens + 4; m != 0; m &= m - 1, t++) store<u32>(starts + (<usize>t << 2), at + startLane(m, drops));
  tokens += popcnt(opens);
  if (lanes != 0) {
    inToken = (spaces & (1 << (lanes - 1))) == 0;
    pending = !inToken && tokens > 0;
  }
  w += <usize>(lanes - popcnt(drops));
  return lanes | (<i32>(w - from) << 8) | (popcnt(escapes) << 16);
}

/** Where the token opened at m's lowest lane starts in the block's output, less the lanes dropped before it. */
@inline function startLane(m: i32, drops: i32): u32 {
  const lane = ctz(m);
  return <u32>(lane - popcnt(drops & ((1 << lane) - 1)));
}

/** The 16 bytes of v at w less the lanes in `drops`, in order: one store per run between drops, each past the last. */
@inline function compact(w: usize, v: v128, drops: i32): void {
  v128.store(w, v);
  let lane = 0;
  for (let m = drops; m != 0; m &= m - 1) {
    const drop = ctz(m);
    w += <usize>(drop - lane);
    lane = drop + 1;
    v128.store(w, i8x16.swizzle(v, i8x16.add(LANE_INDEXES, i8x16.splat(<u8>lane))));
  }
}

const LANE_INDEXES = i8x16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
