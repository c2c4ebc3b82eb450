/**
 * JSON without losing digits, both ways (no Node imports: the CLI, the tab
 * and worker threads share it).
 *
 * Reading: JSON.parse rounds integers beyond 2^53 (tweet and snowflake ids).
 * Such a literal parses to an integral double beyond 2^53, so a parsed line
 * that holds none (a walk over its few values, far cheaper than a scan of its
 * text) is returned as it is. In the others, each such literal outside a
 * string becomes a marker string (U+0000 and its digits) for JSON.parse,
 * turned into a bigint after; a line whose text escapes U+0000 itself (so a
 * marker could be mistaken) is parsed by lossless-json instead, which the
 * tests also take as the reference. Every other number stays a number.
 *
 * Writing: the one mapping of gpudedup's values to JSON (docs/inputs-outputs.md,
 * "Parquet values as JSON"): bigint as its exact digits (a JSON number), a
 * byte array as a base64 string, a Date (a Parquet DATE) as `YYYY-MM-DD`, a
 * non-finite float as the string `NaN`, `Infinity` or `-Infinity`, -0 as `-0.0`,
 * a missing value as null; strings, booleans and other numbers as JSON.stringify
 * writes them.
 */
import { isInteger, isSafeNumber, parse as losslessParse } from 'lossless-json';

function exactNumber(literal: string): number | bigint {
  return isInteger(literal) && !isSafeNumber(literal) ? BigInt(literal) : Number(literal);
}

/** JSON.parse, except that integers beyond 2^53 come back as bigints. Throws JSON.parse's SyntaxError. */
export function parseJsonExact(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (!holdsUnsafeInteger(value)) return value;
  if (!text.includes('\\u0000')) return unmark(JSON.parse(markBigIntegers(text)));
  try {
    return losslessParse(text, undefined, exactNumber);
  } catch {
    return value; // duplicate keys, which lossless-json refuses and JSON.parse resolves to the last one
  }
}

/** The text with each integer literal beyond 2^53 outside strings written as the string U+0000 and its digits. */
function markBigIntegers(text: string): string {
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = closingQuote(text, i);
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < text.length && isNumberChar(text.charCodeAt(end))) end++;
      const literal = text.slice(i, end);
      if (end - i >= 16 && isInteger(literal) && !isSafeNumber(literal)) {
        out += `${text.slice(copied, i)}"\\u0000${literal}"`;
        copied = end;
      }
      i = end - 1;
    }
  }
  return out + text.slice(copied);
}

/** Where the string opened at `open` closes (indexOf, not a loop over its characters: most of a line is its text). */
function closingQuote(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  for (;;) {
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}

/** markBigIntegers' markers, in a parsed value, as bigints. */
function unmark(value: unknown): unknown {
  if (typeof value === 'string') return value.charCodeAt(0) === 0 ? BigInt(value.slice(1)) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = unmark(value[i]);
  } else {
    const fields = value as Record<string, unknown>;
    for (const key in fields) fields[key] = unmark(fields[key]);
  }
  return value;
}

function holdsUnsafeInteger(value: unknown): boolean {
  if (typeof value === 'number') return Math.abs(value) > Number.MAX_SAFE_INTEGER && Number.isInteger(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsUnsafeInteger);
  for (const key in value) if (holdsUnsafeInteger((value as Record<string, unknown>)[key])) return true;
  return false;
}

/** A value as JSON text, by the mapping above. */
export function jsonText(value: unknown): string {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (Number.isFinite(value)) return Object.is(value, -0) ? '-0.0' : JSON.stringify(value);
      return `"${String(value)}"`;
    case 'bigint':
      return value.toString();
    case 'undefined':
      return 'null';
    case 'object':
      return objectText(value);
    default:
      throw new TypeError(`no JSON form for a ${typeof value}`);
  }
}

function objectText(value: object | null): string {
  if (value === null) return 'null';
  if (value instanceof Uint8Array) return `"${base64(value)}"`;
  if (value instanceof Date) return `"${isoDate(value)}"`;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  const fields: string[] = [];
  for (const [key, field] of Object.entries(value)) fields.push(`${JSON.stringify(key)}:${jsonText(field)}`);
  return `{${fields.join(',')}}`;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** A DATE's day (the Date is its midnight UTC), with the sign and six-digit year ISO 8601 uses beyond 0000-9999. */
function isoDate(date: Date): string {
  const iso = date.toISOString();
  return iso.slice(0, iso.indexOf('T'));
}
