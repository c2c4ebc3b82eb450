// The text decoder of the first pass's kernel (unitKernel.as.ts): a JSON string's
// contents or raw UTF-8, read code point by code point, lowercased by Unicode's default
// case mapping (lowercase.generated), its White_Space-separated tokens joined by single
// spaces at `norm`; and an id string's contents unescaped.
import { LOWER_STAGE1, LOWER_STAGE1_SIZE, LOWER_STAGE2, LOWER_EXPAND, LOWER_CONTEXT } from './lowercase.generated.as';
import { hex4, utf8Sequence } from './jsonScan.as';
import { at, input, lineEnd, norm, normLen, tokenCount, utf16, utf8 } from './unitState.as';
import { asciiBlock, closeToken, inToken, openToken, pending, tokens } from './textTokens.as';

let cp: i32 = 0;
let cpEnd: i32 = 0;

/**
 * Reads one code point of a JSON string's contents at i (escaped) or of raw UTF-8.
 * A lone surrogate reads as U+FFFD: everything computed from it (its UTF-8 as
 * TextEncoder writes it, lower case, White_Space, one UTF-16 unit) is U+FFFD's.
 * False where the JSON string or the UTF-8 is invalid.
 */
function readCodePoint(i: i32, json: bool): bool {
  const b = at(i);
  if (json && b == 0x5c) {
    const d = at(i + 1);
    cpEnd = i + 2;
    if (d == 0x75) {
      const u = hex4(i + 2);
      if (u < 0) return false;
      cpEnd = i + 6;
      if (u >= 0xd800 && u <= 0xdbff && at(i + 6) == 0x5c && at(i + 7) == 0x75) {
        const low = hex4(i + 8);
        if (low >= 0xdc00 && low <= 0xdfff) {
          cp = 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00);
          cpEnd = i + 12;
          return true;
        }
      }
      cp = u >= 0xd800 && u <= 0xdfff ? 0xfffd : u;
      return true;
    }
    if (d == 0x22 || d == 0x5c || d == 0x2f) cp = d;
    else if (d == 0x62) cp = 0x08;
    else if (d == 0x66) cp = 0x0c;
    else if (d == 0x6e) cp = 0x0a;
    else if (d == 0x72) cp = 0x0d;
    else if (d == 0x74) cp = 0x09;
    else return false;
    return true;
  }
  if (b < 0x80) {
    if (json && b < 0x20) return false;
    cp = b;
    cpEnd = i + 1;
    return true;
  }
  const n = utf8Sequence(i);
  if (n == 0) return false;
  cpEnd = i + n;
  if (n == 2) cp = ((b & 0x1f) << 6) | (at(i + 1) & 0x3f);
  else if (n == 3) cp = ((b & 0x0f) << 12) | ((at(i + 1) & 0x3f) << 6) | (at(i + 2) & 0x3f);
  else cp = ((b & 0x07) << 18) | ((at(i + 1) & 0x3f) << 12) | ((at(i + 2) & 0x3f) << 6) | (at(i + 3) & 0x3f);
  return true;
}

/** Unicode White_Space (PropList.txt): 25 code points, all in the BMP. */
@inline function isWhiteSpace(c: i32): bool {
  if (c <= 0x20) return c == 0x20 || <u32>(c - 0x09) <= 4;
  if (c < 0x85) return false;
  return c == 0x85 || c == 0xa0 || c == 0x1680 || <u32>(c - 0x2000) <= 0x0a || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

@inline function utf8Bytes(c: i32): i32 {
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

function putUtf8(at: usize, c: i32): i32 {
  if (c < 0x80) { store<u8>(at, <u8>c); return 1; }
  if (c < 0x800) {
    store<u8>(at, <u8>(0xc0 | (c >> 6)));
    store<u8>(at + 1, <u8>(0x80 | (c & 0x3f)));
    return 2;
  }
  if (c < 0x10000) {
    store<u8>(at, <u8>(0xe0 | (c >> 12)));
    store<u8>(at + 1, <u8>(0x80 | ((c >> 6) & 0x3f)));
    store<u8>(at + 2, <u8>(0x80 | (c & 0x3f)));
    return 3;
  }
  store<u8>(at, <u8>(0xf0 | (c >> 18)));
  store<u8>(at + 1, <u8>(0x80 | ((c >> 12) & 0x3f)));
  store<u8>(at + 2, <u8>(0x80 | ((c >> 6) & 0x3f)));
  store<u8>(at + 3, <u8>(0x80 | (c & 0x3f)));
  return 4;
}

/** An id string's contents, unescaped, as UTF-8 at out; −1 where it holds a lone surrogate (JavaScript keeps those) or is invalid. */
export function unescapeId(s: i32, e: i32, out: usize): i32 {
  let len = 0;
  let i = s;
  const saved = lineEnd;
  lineEnd = e;
  while (i < e) {
    if (at(i) == 0x5c && at(i + 1) == 0x75) {
      const u = hex4(i + 2);
      if (u >= 0xd800 && u <= 0xdfff) {
        const low = at(i + 6) == 0x5c && at(i + 7) == 0x75 ? hex4(i + 8) : -1;
        if (u > 0xdbff || low < 0xdc00 || low > 0xdfff) { lineEnd = saved; return -1; }
      }
    }
    if (!readCodePoint(i, true)) { lineEnd = saved; return -1; }
    len += putUtf8(out + <usize>len, cp);
    i = cpEnd;
  }
  lineEnd = saved;
  return len;
}

/** Lower case of a code point beyond ASCII: the table's delta, or a marker. */
@inline function lowerDelta(c: i32): i32 {
  const block = c >> 7;
  if (block >= LOWER_STAGE1_SIZE) return 0;
  const b = <i32>load<u8>(LOWER_STAGE1 + <usize>block);
  if (b == 0) return 0;
  return load<i32>(LOWER_STAGE2 + ((<usize>((b - 1) << 7) + <usize>(c & 127)) << 2));
}

// lowerCase's markers: a lower case that depends on context (a capital sigma), and U+0130's two code points.
const IN_CONTEXT: i32 = -1;
const EXPANDS: i32 = -2;

/** The lower case of code point c, or one of the markers above. */
@inline function lowerCase(c: i32): i32 {
  if (c < 0x80) return <u32>(c - 0x41) < 26 ? c + 32 : c;
  const delta = lowerDelta(c);
  if (delta == LOWER_CONTEXT) return IN_CONTEXT;
  if (delta == LOWER_EXPAND) return EXPANDS;
  return c + delta;
}

/** Printable ASCII from i, lowercased, to w until another byte (or the quote or backslash given); returns where it stopped. */
@inline function lowerAsciiRun(i: i32, limit: i32, w: usize, quote: i32, backslash: i32): i32 {
  let b = <i32>load<u8>(input + <usize>i);
  do {
    store<u8>(w, <u8>(<u32>(b - 0x41) < 26 ? b + 32 : b));
    w++;
    i++;
    if (i >= limit) break;
    b = <i32>load<u8>(input + <usize>i);
  } while (<u32>(b - 0x21) < 0x5e && b != quote && b != backslash);
  return i;
}

/** A code point's lower case c (lowerCase's, not IN_CONTEXT) at w, as the loop below writes it; returns where writing goes on. */
@inline function writeLower(w: usize, c: i32): usize {
  if (c == EXPANDS) {
    // U+0130 → U+0069 U+0307: neither is White_Space.
    w = openToken(w);
    store<u8>(w, 0x69);
    return w + 1 + <usize>putUtf8(w + 1, 0x307);
  }
  if (isWhiteSpace(c)) {
    closeToken();
    return w;
  }
  w = openToken(w);
  if (c < 0x80) {
    store<u8>(w, <u8>c);
    return w + 1;
  }
  return w + <usize>putUtf8(w, c);
}

/**
 * The text from s — a JSON string's contents up to its closing quote, or raw
 * UTF-8 up to `limit` — lowercased, its tokens joined by single spaces at `norm`
 * (normLen bytes), each token's start at `starts`; counts its UTF-16 units and
 * UTF-8 bytes as read. Returns where it stopped (past the quote), or −1 where
 * JavaScript must do it (invalid, or a capital sigma).
 */
export function decodeText(s: i32, limit: i32, json: bool): i32 {
  const saved = lineEnd;
  lineEnd = limit;
  tokens = 0;
  inToken = false;
  pending = false;
  const end = decodeFrom(s, limit, json);
  lineEnd = saved;
  return end;
}

/** decodeText's walk, with `lineEnd` at `limit`. */
function decodeFrom(s: i32, limit: i32, json: bool): i32 {
  let i = s;
  let w: usize = norm;
  let units = 0;
  let bytes = 0;
  // In a JSON string the quote and the backslash are not text bytes.
  const quote = json ? 0x22 : -1;
  const backslash = json ? 0x5c : -1;
  let closed = !json;
  // Blocks of 16 bytes are tried from here on; past 16 bytes of the loop's after one that took nothing.
  let blocksFrom = s;
  while (i < limit) {
    if (i >= blocksFrom) {
      const block = asciiBlock(i, limit, w, json);
      const taken = block & 31;
      i += taken;
      w += <usize>((block >> 8) & 0xff);
      units += taken - (block >> 16);
      bytes += taken - (block >> 16);
      if (taken == 16) continue;
      if (taken == 0) blocksFrom = i + 16;
      if (i >= limit) break;
    }
    const b = <i32>load<u8>(input + <usize>i);
    if (<u32>(b - 0x21) < 0x5e && b != quote && b != backslash) {
      // A run of printable ASCII: one byte and one unit each, never White_Space.
      w = openToken(w);
      const run = i;
      i = lowerAsciiRun(i, limit, w, quote, backslash);
      w += <usize>(i - run);
      units += i - run;
      bytes += i - run;
      continue;
    }
    if (b == 0x20) {
      closeToken();
      i++; units++; bytes++;
      continue;
    }
    if (b == quote) { i++; closed = true; break; }
    if (!readCodePoint(i, json)) return -1;
    i = cpEnd;
    units += cp >= 0x10000 ? 2 : 1;
    bytes += utf8Bytes(cp);
    const c = lowerCase(cp);
    if (c == IN_CONTEXT) return -1;
    w = writeLower(w, c);
  }
  if (!closed) return -1;
  utf16 = units;
  utf8 = bytes;
  normLen = <i32>(w - norm);
  tokenCount = tokens;
  return i;
}
