// JSON validation for the first pass's kernel (unitKernel.as.ts): past a string, a
// value, a number; the line's bytes are at `input`, up to `lineEnd`.
import { at, input, lineEnd } from './unitState.as';

@inline export function isJsonSpace(c: i32): bool {
  return c == 0x20 || c == 0x09;
}

export function skipSpace(i: i32): i32 {
  while (i < lineEnd && isJsonSpace(<i32>load<u8>(input + <usize>i))) i++;
  return i;
}


export let escaped: bool = false;

/** Past the string opening at i (its quote), validated (escapes, no control byte, UTF-8); −1 if invalid. Sets `escaped`. */
export function skipString(i: i32): i32 {
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
export function skipValue(i: i32): i32 {
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
    } else {
      i = skipLiteral(i, c);
      if (i < 0) return -1;
    }
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

/** Past the literal true, false or null at i (c, its first byte); −1 if it is none of them. */
function skipLiteral(i: i32, c: i32): i32 {
  if (c == 0x74) return at(i + 1) == 0x72 && at(i + 2) == 0x75 && at(i + 3) == 0x65 ? i + 4 : -1;
  if (c == 0x66) return at(i + 1) == 0x61 && at(i + 2) == 0x6c && at(i + 3) == 0x73 && at(i + 4) == 0x65 ? i + 5 : -1;
  if (c == 0x6e) return at(i + 1) == 0x75 && at(i + 2) == 0x6c && at(i + 3) == 0x6c ? i + 4 : -1;
  return -1;
}

/** A member's key and colon at i; returns where its value starts. */
export function objectKey(i: i32): i32 {
  if (at(i) != 0x22) return -1;
  i = skipString(i);
  if (i < 0) return -1;
  i = skipSpace(i);
  if (at(i) != 0x3a) return -1;
  return skipSpace(i + 1);
}

export function skipNumber(i: i32): i32 {
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

export function hex4(i: i32): i32 {
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
export function utf8Sequence(i: i32): i32 {
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
