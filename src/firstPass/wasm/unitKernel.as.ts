// The first pass's per-document work, in WebAssembly (AssemblyScript, compiled by
// scripts/build-wasm.mjs with --runtime stub: no allocator, no GC, raw memory only).
// See unitKernel.ts for the JavaScript face and the memory layout it sets up.
//
// One call walks a JSON Lines unit's bytes: it splits lines as node:readline does
// (\n, \r\n, a lone \r), validates each line as JSON, finds the text and id fields,
// decodes the text (escapes, surrogate pairs, UTF-8), lowercases it by Unicode's
// default case mapping (table from String.prototype.toLowerCase, lowercase.generated),
// joins its White_Space-separated tokens by single spaces, hashes that with
// MurmurHash3_x86_128 (the exact pre-pass key), and hashes its shingles (FNV-1a 64
// mod 2^61 − 1 of word or character windows, or for the datasketch schemes SHA-1 of
// them: sha1.generated.as.ts), deduplicated in first-seen order.
// A line it is not sure of (invalid JSON or UTF-8, escapes in keys, a capital sigma
// whose lower case depends on context, an id that is not a plain string or safe
// integer, ...) is marked for JavaScript, which then handles that line alone.
import { LOWER_STAGE1, LOWER_STAGE1_SIZE, LOWER_STAGE2, LOWER_EXPAND, LOWER_CONTEXT } from './lowercase.generated.as';
import { sha1, sha1x4, SHA1X4_OUT } from './sha1.generated.as';

// Per-line record: REC_WORDS i32 words.
export const REC_WORDS: i32 = 20;
const R_STATUS = 0; // 0 blank, 1 document, 2 for JavaScript
const R_LINE = 1;
const R_START = 2;
const R_END = 3;
const R_ID_START = 4;
const R_ID_LEN = 5;
const R_UTF16 = 6;
const R_UTF8 = 7;
const R_EMPTY = 8;
const R_EXACT = 9; // 4 words
const R_IDKEY = 13; // 4 words
const R_SH_START = 17;
const R_SH_COUNT = 18;
const R_TOKENS = 19;

const BLANK = 0;
const DOCUMENT = 1;
const FOR_JS = 2;

// Set by configure().
let input: usize = 0;
let inputLen: i32 = 0;
let textField: usize = 0;
let textFieldLen: i32 = 0;
let idField: usize = 0;
let idFieldLen: i32 = 0;
let idPrefix: usize = 0;
let idPrefixLen: i32 = 0;
// bit 0: strip a BOM on line 1; bit 1: char shingles; bit 2: the id field is required;
// bit 3: SHA-1 shingles (datasketch's sha1_hash32), bit 4: with bit 3, sha1_hash64.
let flags: i32 = 0;
let shingleN: i32 = 5;
let records: usize = 0;
let recordCap: i32 = 0;
let ids: usize = 0;
let shingles: usize = 0;
let norm: usize = 0;
let starts: usize = 0;
let table: usize = 0;

// Progress of run().
let recordCount: i32 = 0;
let idsUsed: i32 = 0;
let shinglesUsed: i32 = 0;
let lineNumber: i32 = 0;

// The current line's bounds, and what the text decoder found.
let lineEnd: i32 = 0;
let utf16: i32 = 0;
let utf8: i32 = 0;
let normLen: i32 = 0;
let tokenCount: i32 = 0;

export function configure(
  inPtr: usize, inLen: i32,
  fieldsPtr: usize, textLen: i32, idLen: i32,
  prefixPtr: usize, prefixLen: i32,
  flagBits: i32, n: i32,
  recPtr: usize, recCap: i32,
  idsPtr: usize, shPtr: usize, normPtr: usize, startsPtr: usize, tablePtr: usize,
): void {
  input = inPtr; inputLen = inLen;
  textField = fieldsPtr; textFieldLen = textLen;
  idField = fieldsPtr + <usize>textLen; idFieldLen = idLen;
  idPrefix = prefixPtr; idPrefixLen = prefixLen;
  flags = flagBits; shingleN = n;
  records = recPtr; recordCap = recCap;
  ids = idsPtr; shingles = shPtr; norm = normPtr; starts = startsPtr; table = tablePtr;
}

export function recordsWritten(): i32 { return recordCount; }
export function linesDone(): i32 { return lineNumber; }

@inline function at(i: i32): i32 {
  return i < lineEnd ? <i32>load<u8>(input + <usize>i) : 0;
}

@inline function rec(r: i32, field: i32): usize {
  return records + ((<usize>(r * REC_WORDS + field)) << 2);
}

/**
 * Walks lines from byte `from` (a line start) with `first` the 1-based number of
 * its line; stops at the unit's end or when the records are full. Returns where it
 * stopped. Outputs start afresh at every call (records, ids, shingles).
 */
export function run(from: i32, first: i32): i32 {
  recordCount = 0; idsUsed = 0; shinglesUsed = 0;
  lineNumber = first - 1;
  let i = from;
  while (i < inputLen && recordCount < recordCap) {
    // The line: [i, e) without its end, [i, next) with it.
    let e = i;
    while (e < inputLen) {
      const c = load<u8>(input + <usize>e);
      if (c == 0x0a || c == 0x0d) break;
      e++;
    }
    let next = e;
    if (e < inputLen) {
      next = e + 1;
      if (load<u8>(input + <usize>e) == 0x0d && next < inputLen && load<u8>(input + <usize>next) == 0x0a) next++;
    }
    lineNumber++;
    let start = i;
    if (lineNumber == 1 && (flags & 1) != 0 && e - i >= 3 && load<u8>(input + <usize>i) == 0xef && load<u8>(input + <usize>i + 1) == 0xbb && load<u8>(input + <usize>i + 2) == 0xbf) start += 3;
    const r = recordCount++;
    store<i32>(rec(r, R_LINE), lineNumber);
    store<i32>(rec(r, R_START), start);
    store<i32>(rec(r, R_END), next);
    store<i32>(rec(r, R_STATUS), line(r, start, e));
    i = next;
  }
  return i;
}

@inline function isJsonSpace(c: i32): bool {
  return c == 0x20 || c == 0x09;
}

function skipSpace(i: i32): i32 {
  while (i < lineEnd && isJsonSpace(<i32>load<u8>(input + <usize>i))) i++;
  return i;
}

// What the object held, by its last occurrence of each field (JSON.parse keeps the last).
let textKind: i32 = 0; // 0 absent, 1 string (decoded at `norm`), 2 anything else
let idKind: i32 = 0; // 0 absent, 1 string, 2 plain safe integer, 3 anything else
let idStart: i32 = 0;
let idEnd: i32 = 0;

function line(r: i32, s: i32, e: i32): i32 {
  lineEnd = e;
  let i = skipSpace(s);
  if (i == e) return BLANK;
  if (at(i) != 0x7b) return FOR_JS;
  textKind = 0; idKind = 0;
  i = members(skipSpace(i + 1));
  if (i < 0) return FOR_JS;
  if (skipSpace(i) != e) return FOR_JS;
  if (textKind != 1) return FOR_JS;
  if (!writeId(r)) return FOR_JS;
  finishDocument(r);
  return DOCUMENT;
}

/** The object's members from i (past its brace and white space) to past its closing brace; −1 where JavaScript must read it. */
function members(i: i32): i32 {
  if (at(i) == 0x7d) return i + 1;
  let more = true;
  while (more) {
    if (at(i) != 0x22) return -1;
    const keyStart = i + 1;
    i = skipString(i);
    if (i < 0 || escaped) return -1;
    const keyEnd = i - 1;
    i = skipSpace(i);
    if (at(i) != 0x3a) return -1;
    i = skipSpace(i + 1);
    const valueStart = i;
    const c = at(i);
    const isText = sameBytes(keyStart, keyEnd, textField, textFieldLen);
    // The text is decoded where it stands (one pass: validated, lowercased, joined); a later one replaces it.
    i = isText && c == 0x22 ? decodeText(i + 1, lineEnd, true) : skipValue(i);
    if (i < 0) return -1;
    if (isText) textKind = c == 0x22 ? 1 : 2;
    if (sameBytes(keyStart, keyEnd, idField, idFieldLen)) {
      idKind = c == 0x22 ? 1 : (plainSafeInteger(valueStart, i) ? 2 : 3);
      idStart = c == 0x22 ? valueStart + 1 : valueStart;
      idEnd = c == 0x22 ? i - 1 : i;
    }
    i = skipSpace(i);
    const d = at(i);
    if (d == 0x2c) i = skipSpace(i + 1);
    else if (d == 0x7d) more = false;
    else return -1;
  }
  return i + 1;
}

function sameBytes(s: i32, e: i32, name: usize, len: i32): bool {
  if (e - s != len) return false;
  return memory.compare(input + <usize>s, name, <usize>len) == 0;
}

function plainSafeInteger(s: i32, e: i32): bool {
  // -?[1-9][0-9]{0,14} or 0 (JSON already checked); "-0" is the number 0, named "0": JavaScript's.
  let i = s;
  if (at(i) == 0x2d) i++;
  const digits = e - i;
  if (digits < 1 || digits > 15) return false;
  if (at(i) == 0x30) return digits == 1 && i == s;
  for (let j = i; j < e; j++) if (<u32>(at(j) - 0x30) > 9) return false;
  return true;
}

/** The id: a string's bytes unescaped, an integer's digits, or the line number; its key. */
function writeId(r: i32): bool {
  const out = ids + <usize>idsUsed;
  let len = 0;
  if (idKind == 1) {
    len = unescapeId(idStart, idEnd, out);
    if (len < 0) return false;
  } else if (idKind == 2) {
    len = idEnd - idStart;
    memory.copy(out, input + <usize>idStart, <usize>len);
  } else if (idKind == 0 && (flags & 4) == 0) {
    memory.copy(out, idPrefix, <usize>idPrefixLen);
    len = idPrefixLen + writeDecimal(out + <usize>idPrefixLen, lineNumber);
  } else return false;
  store<i32>(rec(r, R_ID_START), idsUsed);
  store<i32>(rec(r, R_ID_LEN), len);
  murmur3(out, len, rec(r, R_IDKEY));
  idsUsed += len;
  return true;
}

function writeDecimal(out: usize, value: i32): i32 {
  let digits = 1;
  for (let v = value; v >= 10; v /= 10) digits++;
  let v = value;
  for (let d = digits - 1; d >= 0; d--) {
    store<u8>(out + <usize>d, <u8>(0x30 + v % 10));
    v /= 10;
  }
  return digits;
}

let escaped: bool = false;

/** Past the string opening at i (its quote), validated (escapes, no control byte, UTF-8); −1 if invalid. Sets `escaped`. */
function skipString(i: i32): i32 {
  escaped = false;
  i++;
  for (;;) {
    if (i >= lineEnd) return -1;
    const c = <i32>load<u8>(input + <usize>i);
    if (c == 0x22) return i + 1;
    if (c == 0x5c) {
      escaped = true;
      const d = at(i + 1);
      if (d == 0x75) {
        if (hex4(i + 2) < 0) return -1;
        i += 6;
      } else if (d == 0x22 || d == 0x5c || d == 0x2f || d == 0x62 || d == 0x66 || d == 0x6e || d == 0x72 || d == 0x74) i += 2;
      else return -1;
    } else if (c < 0x20) return -1;
    else if (c < 0x80) i++;
    else {
      const n = utf8Sequence(i);
      if (n == 0) return -1;
      i += n;
    }
  }
  return -1; // not reached
}

/** Past the JSON value at i (already past white space), validated; −1 if invalid or too deep. */
function skipValue(i: i32): i32 {
  let depth = 0;
  // Containers open: bit d of `objects` is 1 for an object at depth d + 1 (at most 64 deep here; deeper goes to JavaScript).
  let objects: u64 = 0;
  for (;;) {
    // A value at i.
    const c = at(i);
    if (c == 0x22) {
      i = skipString(i);
      if (i < 0) return -1;
    } else if (c == 0x7b || c == 0x5b) {
      if (depth == 64) return -1;
      const object = c == 0x7b;
      i = skipSpace(i + 1);
      if (at(i) == (object ? 0x7d : 0x5d)) i++;
      else {
        if (object) objects |= (<u64>1) << depth; else objects &= ~((<u64>1) << depth);
        depth++;
        if (object) {
          i = objectKey(i);
          if (i < 0) return -1;
        }
        continue;
      }
    } else if (c == 0x2d || <u32>(c - 0x30) <= 9) {
      i = skipNumber(i);
      if (i < 0) return -1;
    } else if (c == 0x74) {
      if (at(i + 1) != 0x72 || at(i + 2) != 0x75 || at(i + 3) != 0x65) return -1;
      i += 4;
    } else if (c == 0x66) {
      if (at(i + 1) != 0x61 || at(i + 2) != 0x6c || at(i + 3) != 0x73 || at(i + 4) != 0x65) return -1;
      i += 5;
    } else if (c == 0x6e) {
      if (at(i + 1) != 0x75 || at(i + 2) != 0x6c || at(i + 3) != 0x6c) return -1;
      i += 4;
    } else return -1;
    // After a value: close containers, or a comma and the next value.
    // (while (flag), not for (;;) with break: asc 0.28 compiles the latter's exit to `unreachable`.)
    let closing = true;
    while (closing) {
      if (depth == 0) return i;
      i = skipSpace(i);
      const d = at(i);
      const object = ((objects >> <u64>(depth - 1)) & 1) != 0;
      if (d == 0x2c) {
        i = skipSpace(i + 1);
        if (object) {
          i = objectKey(i);
          if (i < 0) return -1;
        }
        closing = false;
      } else {
        if (d != (object ? 0x7d : 0x5d)) return -1;
        depth--;
        i++;
      }
    }
  }
  return -1; // not reached
}

/** A member's key and colon at i; returns where its value starts. */
function objectKey(i: i32): i32 {
  if (at(i) != 0x22) return -1;
  i = skipString(i);
  if (i < 0) return -1;
  i = skipSpace(i);
  if (at(i) != 0x3a) return -1;
  return skipSpace(i + 1);
}

function skipNumber(i: i32): i32 {
  if (at(i) == 0x2d) i++;
  if (at(i) == 0x30) i++;
  else if (<u32>(at(i) - 0x31) <= 8) {
    while (<u32>(at(i) - 0x30) <= 9) i++;
  } else return -1;
  if (at(i) == 0x2e) {
    i++;
    if (<u32>(at(i) - 0x30) > 9) return -1;
    while (<u32>(at(i) - 0x30) <= 9) i++;
  }
  const e = at(i);
  if (e == 0x65 || e == 0x45) {
    i++;
    if (at(i) == 0x2b || at(i) == 0x2d) i++;
    if (<u32>(at(i) - 0x30) > 9) return -1;
    while (<u32>(at(i) - 0x30) <= 9) i++;
  }
  return i;
}

function hex4(i: i32): i32 {
  let v = 0;
  for (let j = 0; j < 4; j++) {
    const c = at(i + j);
    let d: i32;
    if (<u32>(c - 0x30) <= 9) d = c - 0x30;
    else if (<u32>((c | 0x20) - 0x61) <= 5) d = (c | 0x20) - 0x61 + 10;
    else return -1;
    v = (v << 4) | d;
  }
  return v;
}

/** Length of the valid UTF-8 sequence of 2–4 bytes at i, or 0 (what TextDecoder would replace). */
function utf8Sequence(i: i32): i32 {
  const b = at(i);
  const c = at(i + 1);
  if (b >= 0xc2 && b <= 0xdf) return (c & 0xc0) == 0x80 ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) {
    const lo = b == 0xe0 ? 0xa0 : 0x80;
    const hi = b == 0xed ? 0x9f : 0xbf;
    if (c < lo || c > hi) return 0;
    return (at(i + 2) & 0xc0) == 0x80 ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    const lo = b == 0xf0 ? 0x90 : 0x80;
    const hi = b == 0xf4 ? 0x8f : 0xbf;
    if (c < lo || c > hi) return 0;
    return (at(i + 2) & 0xc0) == 0x80 && (at(i + 3) & 0xc0) == 0x80 ? 4 : 0;
  }
  return 0;
}

// The code point the decoder read, and where it ended.
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
function unescapeId(s: i32, e: i32, out: usize): i32 {
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

/**
 * The text from s — a JSON string's contents up to its closing quote, or raw
 * UTF-8 up to `limit` — lowercased, its tokens joined by single spaces at `norm`
 * (normLen bytes), each token's start at `starts`; counts its UTF-16 units and
 * UTF-8 bytes as read. Returns where it stopped (past the quote), or −1 where
 * JavaScript must do it (invalid, or a capital sigma).
 */
function decodeText(s: i32, limit: i32, json: bool): i32 {
  const saved = lineEnd;
  lineEnd = limit;
  let i = s;
  let w: usize = norm;
  let pending = false;
  let inToken = false;
  let tokens = 0;
  let units = 0;
  let bytes = 0;
  // In a JSON string the quote and the backslash are not text bytes.
  const quote = json ? 0x22 : -1;
  const backslash = json ? 0x5c : -1;
  let closed = !json;
  while (i < limit) {
    let b = <i32>load<u8>(input + <usize>i);
    if (<u32>(b - 0x21) < 0x5e && b != quote && b != backslash) {
      // A run of printable ASCII: one byte and one unit each, never White_Space.
      if (!inToken) {
        if (pending) { store<u8>(w, 0x20); w++; pending = false; }
        store<u32>(starts + (<usize>tokens << 2), <u32>(w - norm));
        tokens++;
        inToken = true;
      }
      const run = i;
      do {
        store<u8>(w, <u8>(<u32>(b - 0x41) < 26 ? b + 32 : b));
        w++;
        i++;
        if (i >= limit) break;
        b = <i32>load<u8>(input + <usize>i);
      } while (<u32>(b - 0x21) < 0x5e && b != quote && b != backslash);
      units += i - run;
      bytes += i - run;
      continue;
    }
    if (b == 0x20) {
      inToken = false;
      pending = tokens > 0;
      i++;
      units++;
      bytes++;
      continue;
    }
    if (b == quote) {
      i++;
      closed = true;
      break;
    }
    if (!readCodePoint(i, json)) { lineEnd = saved; return -1; }
    i = cpEnd;
    let c = cp;
    units += c >= 0x10000 ? 2 : 1;
    bytes += utf8Bytes(c);
    if (c >= 0x80) {
      const delta = lowerDelta(c);
      if (delta == LOWER_CONTEXT) { lineEnd = saved; return -1; }
      if (delta == LOWER_EXPAND) {
        // U+0130 → U+0069 U+0307: neither is White_Space.
        if (!inToken) { if (pending) { store<u8>(w, 0x20); w++; } store<u32>(starts + (<usize>tokens << 2), <u32>(w - norm)); tokens++; inToken = true; pending = false; }
        store<u8>(w, 0x69);
        w += 1 + <usize>putUtf8(w + 1, 0x307);
        continue;
      }
      c += delta;
    } else if (<u32>(c - 0x41) < 26) c += 32;
    if (isWhiteSpace(c)) {
      inToken = false;
      pending = tokens > 0;
      continue;
    }
    if (!inToken) {
      if (pending) { store<u8>(w, 0x20); w++; pending = false; }
      store<u32>(starts + (<usize>tokens << 2), <u32>(w - norm));
      tokens++;
      inToken = true;
    }
    if (c < 0x80) { store<u8>(w, <u8>c); w++; }
    else w += <usize>putUtf8(w, c);
  }
  lineEnd = saved;
  if (!closed) return -1;
  utf16 = units;
  utf8 = bytes;
  normLen = <i32>(w - norm);
  tokenCount = tokens;
  return i;
}

/** The record's text fields, exact key and shingles from what decodeText left. */
function finishDocument(r: i32): void {
  store<i32>(rec(r, R_UTF16), utf16);
  store<i32>(rec(r, R_UTF8), utf8);
  store<i32>(rec(r, R_TOKENS), tokenCount);
  store<i32>(rec(r, R_EMPTY), tokenCount == 0 ? 1 : 0);
  if (tokenCount == 0) {
    store<i64>(rec(r, R_EXACT), 0);
    store<i64>(rec(r, R_EXACT + 2), 0);
  } else murmur3(norm, normLen, rec(r, R_EXACT));
  store<i32>(rec(r, R_SH_START), shinglesUsed);
  const count = tokenCount == 0 ? 0 : shingle(shingles + (<usize>shinglesUsed << 3));
  store<i32>(rec(r, R_SH_COUNT), count);
  shinglesUsed += count;
}

/** A text given as raw UTF-8 (from TextEncoder: valid) at `input`: record r's text fields, key and shingles; false for JavaScript (a capital sigma). */
export function text(len: i32, r: i32): bool {
  lineEnd = len;
  if (r == 0) shinglesUsed = 0;
  if (decodeText(0, len, false) < 0) return false;
  finishDocument(r);
  return true;
}

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

// The set being deduplicated: `kept` values so far, a table of their indexes + 1.
let kept: i32 = 0;
let tableMask: i32 = 0;

/** Appends h to the set at `out` unless it is there already (first-seen order). */
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
  }
}

/** An empty table for the set of a document of `windows` windows. */
@inline function clearTable(windows: i32): void {
  let capacity = 4;
  while (capacity < windows * 2) capacity <<= 1;
  tableMask = capacity - 1;
  memory.fill(table, 0, <usize>capacity << 2);
  kept = 0;
}

/**
 * The window hashes of the joined tokens at `norm`, deduplicated in first-seen
 * order, written at `out`; returns how many. Word windows: n tokens, each followed
 * by one space; char windows: n code points of the joined text. Fewer tokens (code
 * points) than n give one window of all of them. With flag bit 3 the hashes are
 * SHA-1's (shaWindows).
 */
function shingle(out: usize): i32 {
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

// MurmurHash3_x86_128, seed 0 (src/math/murmur3.ts is the reference): four words at out.
@inline function mix(k: u32, c1: u32, r: u32, c2: u32): u32 {
  return rotl<u32>(k * c1, r) * c2;
}

@inline function fmix32(h: u32): u32 {
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  return h ^ (h >> 16);
}

function murmur3(data: usize, len: i32, out: usize): void {
  const C1: u32 = 0x239b961b, C2: u32 = 0xab0e9789, C3: u32 = 0x38b34ae5, C4: u32 = 0xa1e38b93;
  let h1: u32 = 0, h2: u32 = 0, h3: u32 = 0, h4: u32 = 0;
  const blocks = len & ~15;
  for (let i = 0; i < blocks; i += 16) {
    const p = data + <usize>i;
    h1 ^= mix(load<u32>(p), C1, 15, C2);
    h1 = (rotl<u32>(h1, 19) + h2) * 5 + 0x561ccd1b;
    h2 ^= mix(load<u32>(p, 4), C2, 16, C3);
    h2 = (rotl<u32>(h2, 17) + h3) * 5 + 0x0bcaa747;
    h3 ^= mix(load<u32>(p, 8), C3, 17, C4);
    h3 = (rotl<u32>(h3, 15) + h4) * 5 + 0x96cd1c35;
    h4 ^= mix(load<u32>(p, 12), C4, 18, C1);
    h4 = (rotl<u32>(h4, 13) + h1) * 5 + 0x32ac3b17;
  }
  let t1: u32 = 0, t2: u32 = 0, t3: u32 = 0, t4: u32 = 0;
  for (let i = blocks; i < len; i++) {
    const v = <u32>load<u8>(data + <usize>i) << (<u32>((i - blocks) & 3) << 3);
    const slot = (i - blocks) >> 2;
    if (slot == 0) t1 |= v; else if (slot == 1) t2 |= v; else if (slot == 2) t3 |= v; else t4 |= v;
  }
  const rest = len & 15;
  if (rest > 12) h4 ^= mix(t4, C4, 18, C1);
  if (rest > 8) h3 ^= mix(t3, C3, 17, C4);
  if (rest > 4) h2 ^= mix(t2, C2, 16, C3);
  if (rest > 0) h1 ^= mix(t1, C1, 15, C2);
  const l = <u32>len;
  h1 ^= l; h2 ^= l; h3 ^= l; h4 ^= l;
  h1 += h2 + h3 + h4;
  h2 += h1; h3 += h1; h4 += h1;
  h1 = fmix32(h1); h2 = fmix32(h2); h3 = fmix32(h3); h4 = fmix32(h4);
  h1 += h2 + h3 + h4;
  h2 += h1; h3 += h1; h4 += h1;
  store<u32>(out, h1);
  store<u32>(out, h2, 4);
  store<u32>(out, h3, 8);
  store<u32>(out, h4, 12);
}

/** Where the kernel's static data ends: JavaScript lays its buffers out above. */
export function heapBase(): usize { return __heap_base; }
