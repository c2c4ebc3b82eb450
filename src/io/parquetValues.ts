/**
 * Parquet values exactly as stored (no Node imports: the CLI, the tab and
 * worker threads share it). hyparquet turns decimals into doubles, timestamps
 * into millisecond Dates, maps into objects keyed by strings, and cannot read
 * INTERVAL or BSON; so columns with those annotations are read without them,
 * as their physical values, and converted here into exact values, the same
 * for every row:
 *
 * - DECIMAL: the decimal string with `scale` fraction digits (`-0.00100`);
 * - TIMESTAMP (and INT96): ISO 8601 with every digit of its unit (3, 6 or 9
 *   fraction digits), `Z` when adjusted to UTC;
 * - MAP: an array of `{key, value}` entries, in file order;
 * - INTERVAL, BSON, GEOMETRY, GEOGRAPHY: their bytes; VARIANT: its
 *   `{metadata, value}` bytes; JSON: its text.
 *
 * - ENUM: its text.
 *
 * Other values are as hyparquet gives them: strings, numbers (INT32, FLOAT,
 * DOUBLE, FLOAT16), bigints (INT64), booleans, Uint8Arrays (binary), Dates
 * (DATE), UUID strings, arrays (LIST), objects (structs). The writer turns
 * them back (formats/parquet/keptParquet.ts), and exactJson.ts maps them to JSON.
 */
import type { ParquetParsers, SchemaElement, SchemaTree } from 'hyparquet';

/** Annotations that hyparquet would convert with a loss, or cannot read. */
function lossyAnnotation(element: SchemaElement): boolean {
  const converted = element.converted_type;
  const logical = element.logical_type?.type;
  return (
    converted === 'DECIMAL' ||
    converted === 'TIMESTAMP_MILLIS' ||
    converted === 'TIMESTAMP_MICROS' ||
    converted === 'MAP' ||
    converted === 'MAP_KEY_VALUE' ||
    converted === 'INTERVAL' ||
    converted === 'BSON' ||
    logical === 'DECIMAL' ||
    logical === 'TIMESTAMP' ||
    logical === 'MAP' ||
    logical === 'BSON' ||
    logical === 'GEOMETRY' ||
    logical === 'GEOGRAPHY' ||
    logical === 'VARIANT'
  );
}

/** The schema to hand hyparquet: the same, less the annotations it would read with a loss. */
export function readingSchema(schema: readonly SchemaElement[]): SchemaElement[] {
  return schema.map((element) =>
    lossyAnnotation(element) ? { ...element, converted_type: undefined, logical_type: undefined } : element,
  );
}

const utf8 = new TextDecoder();

/**
 * hyparquet's parsers for the annotations it still sees: INT96 as its nanoseconds (the only caller left), JSON as its
 * text.
 */
export const EXACT_PARSERS: Partial<ParquetParsers> = {
  timestampFromNanoseconds: (nanos: bigint) => nanos,
  jsonFromBytes: (bytes: Uint8Array) => bytes && utf8.decode(bytes),
};

export type Convert = (value: unknown) => unknown;

export type TimeUnit = 'MILLIS' | 'MICROS' | 'NANOS';

export function timestampUnit(element: SchemaElement): { unit: TimeUnit; utc: boolean } | undefined {
  const logical = element.logical_type;
  if (logical?.type === 'TIMESTAMP') return { unit: logical.unit, utc: logical.isAdjustedToUTC };
  if (element.converted_type === 'TIMESTAMP_MILLIS') return { unit: 'MILLIS', utc: true };
  if (element.converted_type === 'TIMESTAMP_MICROS') return { unit: 'MICROS', utc: true };
  return undefined;
}

export function decimalScale(element: SchemaElement): number | undefined {
  if (element.logical_type?.type === 'DECIMAL') return element.logical_type.scale;
  return element.converted_type === 'DECIMAL' ? (element.scale ?? 0) : undefined;
}

export function isMapGroup(element: SchemaElement): boolean {
  return element.converted_type === 'MAP' || element.logical_type?.type === 'MAP';
}

/** hyparquet's test for a standard three-level list, which it reads as an array. */
export function isListGroup(column: SchemaTree): boolean {
  const repeated = column.children[0];
  return (
    column.element.converted_type === 'LIST' &&
    column.children.length === 1 &&
    repeated.element.repetition_type === 'REPEATED' &&
    repeated.children.length <= 1
  );
}

/** A list's element: the repeated group's one child, or the repeated field itself. */
export function listElement(column: SchemaTree): SchemaTree {
  const repeated = column.children[0];
  return repeated.children.length === 1 ? repeated.children[0] : repeated;
}

/**
 * From hyparquet's value of a column read with readingSchema to the exact value above; undefined when it is already.
 */
export function exactConverter(column: SchemaTree): Convert | undefined {
  const { element } = column;
  if (column.children.length === 0) return leafConverter(element);
  if (isMapGroup(element) && column.children.length === 1 && column.children[0].children.length === 2) {
    const entries = column.children[0];
    const [key, value] = entries.children.map((child) => exactConverter(child) ?? ((v: unknown) => v));
    return (map) =>
      map == null
        ? null
        : (map as Record<string, { key: unknown; value: unknown }[]>)[entries.element.name].map((e) => ({
            key: key(e.key),
            value: value(e.value),
          }));
  }
  if (isListGroup(column)) {
    const item = exactConverter(listElement(column));
    return item && ((list) => (list == null ? null : (list as unknown[]).map(item)));
  }
  return structConverter(column.children.map((child) => [child.element.name, exactConverter(child)] as const));
}

/** A struct's converter from its fields' (undefined when none needs one). */
export function structConverter(fields: readonly (readonly [string, Convert | undefined])[]): Convert | undefined {
  const converted = fields.filter((field): field is readonly [string, Convert] => field[1] !== undefined);
  if (converted.length === 0) return undefined;
  return (struct) => {
    if (struct == null) return null;
    const out: Record<string, unknown> = { ...(struct as Record<string, unknown>) };
    for (const [name, convert] of converted) out[name] = convert(out[name]);
    return out;
  };
}

function leafConverter(element: SchemaElement): Convert | undefined {
  const scale = decimalScale(element);
  if (scale !== undefined)
    return (v) => (v == null ? null : decimalText(unscaledDecimal(v as number | bigint | Uint8Array), scale));
  const timestamp = timestampUnit(element);
  if (timestamp !== undefined)
    return (v) => (v == null ? null : timestampText(BigInt(v as bigint), timestamp.unit, timestamp.utc));
  if (element.type === 'INT96') return (v) => (v == null ? null : timestampText(v as bigint, 'NANOS', false));
  // utf8: false leaves ENUM as bytes (hyparquet decodes only STRING); it is text.
  if (element.converted_type === 'ENUM' || element.logical_type?.type === 'ENUM')
    return (v) => (v instanceof Uint8Array ? utf8.decode(v) : (v ?? null));
  return undefined;
}

/** A DECIMAL's unscaled integer from its physical value (INT32, INT64, or big-endian two's complement bytes). */
export function unscaledDecimal(value: number | bigint | Uint8Array): bigint {
  if (!(value instanceof Uint8Array)) return BigInt(value);
  let unscaled = 0n;
  for (const byte of value) unscaled = (unscaled << 8n) | BigInt(byte);
  return value.length > 0 && value[0] >= 0x80 ? unscaled - (1n << BigInt(8 * value.length)) : unscaled;
}

export function decimalText(unscaled: bigint, scale: number): string {
  const sign = unscaled < 0n ? '-' : '';
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  return scale === 0 ? sign + digits : `${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** decimalText's inverse: the unscaled integer of a decimal string with at most `scale` fraction digits. */
export function decimalUnscaled(text: string, scale: number): bigint {
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text);
  if (match === null || (match[3] ?? '').length > scale)
    throw new RangeError(`"${text}" is not a decimal with at most ${scale} fraction digits`);
  const unscaled = BigInt(match[2] + (match[3] ?? '').padEnd(scale, '0'));
  return match[1] === '-' ? -unscaled : unscaled;
}

const PER_SECOND: Record<TimeUnit, bigint> = { MILLIS: 1_000n, MICROS: 1_000_000n, NANOS: 1_000_000_000n };
const FRACTION_DIGITS: Record<TimeUnit, number> = { MILLIS: 3, MICROS: 6, NANOS: 9 };

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b < 0n ? q - 1n : q;
}

/**
 * `YYYY-MM-DDTHH:MM:SS.fff…` (every digit of the unit), `Z` when adjusted to UTC; any int64 (years beyond 0-9999 as ±
 * and six or more digits).
 */
export function timestampText(value: bigint, unit: TimeUnit, utc: boolean): string {
  const seconds = floorDiv(value, PER_SECOND[unit]);
  const fraction = (value - seconds * PER_SECOND[unit]).toString().padStart(FRACTION_DIGITS[unit], '0');
  const days = Number(floorDiv(seconds, 86_400n));
  const ofDay = Number(seconds - BigInt(days) * 86_400n);
  const [year, month, day] = civilFromDays(days);
  const yyyy =
    year >= 0 && year <= 9999
      ? String(year).padStart(4, '0')
      : (year < 0 ? '-' : '+') + String(Math.abs(year)).padStart(6, '0');
  const two = (n: number): string => String(n).padStart(2, '0');
  const time = `${two(Math.floor(ofDay / 3600))}:${two(Math.floor(ofDay / 60) % 60)}:${two(ofDay % 60)}`;
  return `${yyyy}-${two(month)}-${two(day)}T${time}.${fraction}${utc ? 'Z' : ''}`;
}

/** timestampText's inverse. */
export function timestampValue(text: string, unit: TimeUnit): bigint {
  const match = /^([+-]\d{6,}|\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z?$/.exec(text);
  const fraction = match?.[7] ?? '';
  if (match === null || fraction.length > FRACTION_DIGITS[unit])
    throw new RangeError(`"${text}" is not an ISO 8601 timestamp in ${unit.toLowerCase()}`);
  const days = daysFromCivil(Number(match[1]), Number(match[2]), Number(match[3]));
  const seconds = BigInt(days) * 86_400n + BigInt(Number(match[4]) * 3600 + Number(match[5]) * 60 + Number(match[6]));
  return seconds * PER_SECOND[unit] + BigInt(fraction.padEnd(FRACTION_DIGITS[unit], '0'));
}

/** Proleptic Gregorian date of a day count from 1970-01-01 (H. Hinnant's civil_from_days). */
function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, doy - Math.floor((153 * mp + 2) / 5) + 1];
}

function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}
