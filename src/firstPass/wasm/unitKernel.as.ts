// The first pass's per-document work, in WebAssembly (AssemblyScript, compiled by
// scripts/build-wasm.mjs with --runtime stub: no allocator, no GC, raw memory only).
// See unitKernel.ts for the JavaScript face and the memory layout it sets up. This is the
// entry: its exports are the module's; unitState, jsonScan, textDecode, textTokens, shingleHash and
// murmur3 (.as.ts, beside it) hold the rest.
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
import { DOCUMENT, BLANK, FOR_JS, R_EMPTY, R_END, R_EXACT, R_ID_LEN, R_ID_START, R_IDKEY, R_LINE, R_SH_COUNT, R_SH_START, R_START, R_STATUS, R_TOKENS, R_UTF16, R_UTF8,
  at, flags, idField, idFieldLen, idPrefix, idPrefixLen, ids, idsUsed, input, inputLen, lineEnd, lineNumber, norm, normLen, recordCap, recordCount, records, rec,
  shingleN, shingles, shinglesUsed, starts, table, textField, textFieldLen, tokenCount, utf16, utf8 } from './unitState.as';
import { escaped, skipSpace, skipString, skipValue } from './jsonScan.as';
import { decodeText, unescapeId } from './textDecode.as';
import { shingle } from './shingleHash.as';
import { murmur3 } from './murmur3.as';

export { REC_WORDS } from './unitState.as';

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
    let e = lineEndFrom(i);
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
/** The first \n or \r at or past i, or the unit's end: 16 bytes a step, then byte by byte. */
function lineEndFrom(i: i32): i32 {
  let e = i;
  for (; e + 16 <= inputLen; e += 16) {
    const v = v128.load(input + <usize>e);
    const ends = i8x16.bitmask(v128.or(i8x16.eq(v, i8x16.splat(0x0a)), i8x16.eq(v, i8x16.splat(0x0d))));
    if (ends != 0) return e + ctz(ends);
  }
  while (e < inputLen) {
    const c = load<u8>(input + <usize>e);
    if (c == 0x0a || c == 0x0d) break;
    e++;
  }
  return e;
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

/** Where the kernel's static data ends: JavaScript lays its buffers out above. */
export function heapBase(): usize { return __heap_base; }
