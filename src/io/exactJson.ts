/**
 * JSON without losing digits, both ways (no Node imports: the CLI, the tab
 * and worker threads share it).
 *
 * Reading: JSON.parse rounds integers beyond 2^53 (tweet and snowflake ids).
 * Only a text with a run of 16 or more digits can hold one, so every other
 * line takes JSON.parse as it is; those few are parsed again by lossless-json,
 * which gives such an integer as a bigint (every other number stays a number).
 *
 * Writing: the one mapping of gpudedup's values to JSON (the README's
 * "Parquet to JSON Lines"): bigint as its exact digits (a JSON number), a
 * byte array as a base64 string, a Date (a Parquet DATE) as `YYYY-MM-DD`, a
 * non-finite float as the string `NaN`, `Infinity` or `-Infinity`, -0 as `-0.0`,
 * a missing value as null; strings, booleans and other numbers as JSON.stringify
 * writes them.
 */
import { isInteger, isSafeNumber, parse as losslessParse } from 'lossless-json';

const LONG_DIGITS = /\d{16}/;

function exactNumber(literal: string): number | bigint {
  return isInteger(literal) && !isSafeNumber(literal) ? BigInt(literal) : Number(literal);
}

/** JSON.parse, except that integers beyond 2^53 come back as bigints. Throws JSON.parse's SyntaxError. */
export function parseJsonExact(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  try {
    return losslessParse(text, undefined, exactNumber);
  } catch {
    // Malformed: JSON.parse's message, as for every other line. Or duplicate keys, which lossless-json refuses
    // and JSON.parse resolves to the last one: JSON.parse's reading.
    return JSON.parse(text);
  }
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
