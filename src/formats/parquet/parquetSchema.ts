/**
 * Parquet schemas of gpudedup's outputs, without I/O (the CLI's files and the
 * browser app's downloads share them): flat schemas of optional scalar
 * columns, JS values as such a column holds them, and the kept documents'
 * columns inferred from the documents' fields (keptDocuments.ts).
 */
import type { SchemaElement } from 'hyparquet';
import { jsonText, parseJsonExact } from '../../io/exactJson.js';

/** Rows per row group of a table (a few MB: ids and numbers). */
export const TABLE_ROW_GROUP = 131_072;
/** A row group of kept documents: this many rows, or this much text, whichever comes first. */
export const KEPT_ROW_GROUP_ROWS = 50_000;
export const KEPT_ROW_GROUP_TEXT = 64 << 20;

/** DECIMAL: decimal(38, 0), for integers beyond INT64. */
export type ScalarType = 'STRING' | 'INT64' | 'DECIMAL' | 'DOUBLE' | 'BOOLEAN';

/** A flat schema of optional scalar columns. */
export function flatSchema(columns: readonly { name: string; type: ScalarType }[]): SchemaElement[] {
  return [
    { name: 'root', num_children: columns.length },
    ...columns.map(({ name, type }): SchemaElement => {
      if (type === 'STRING') return { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' };
      if (type === 'DECIMAL') {
        return {
          name,
          type: 'FIXED_LEN_BYTE_ARRAY',
          type_length: 16,
          converted_type: 'DECIMAL',
          precision: 38,
          scale: 0,
          logical_type: { type: 'DECIMAL', precision: 38, scale: 0 },
          repetition_type: 'OPTIONAL',
        };
      }
      return { name, type, repetition_type: 'OPTIONAL' };
    }),
  ];
}

/** A JS value as a column of that type holds it (null for missing). */
export function toColumnValue(value: unknown, type: ScalarType): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'STRING':
      return typeof value === 'string' ? value : typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
    case 'INT64':
    case 'DECIMAL':
      return typeof value === 'bigint' ? value : BigInt(value as number);
    case 'DOUBLE':
      return Number(value);
    case 'BOOLEAN':
      return Boolean(value);
  }
}

/** `wide`: an integer beyond INT64 within decimal(38, 0); `huge`: beyond that. */
type Kind = 'string' | 'integer' | 'wide' | 'huge' | 'float' | 'boolean' | 'nested';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const DECIMAL38 = 10n ** 38n;

function kindOf(value: unknown): Kind | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'bigint') {
    if (value >= INT64_MIN && value <= INT64_MAX) return 'integer';
    return value > -DECIMAL38 && value < DECIMAL38 ? 'wide' : 'huge';
  }
  if (typeof value === 'number') return Number.isSafeInteger(value) ? 'integer' : 'float';
  return 'nested';
}

function typeOf(kinds: Set<Kind>): ScalarType | undefined {
  if (kinds.has('nested')) return undefined;
  if (kinds.has('string') || kinds.has('huge')) return 'STRING';
  if (kinds.has('boolean')) return kinds.size === 1 ? 'BOOLEAN' : 'STRING';
  if (kinds.has('float')) return 'DOUBLE';
  if (kinds.has('wide')) return 'DECIMAL';
  return kinds.has('integer') ? 'INT64' : 'STRING'; // a field that is always null: an all-null string column
}

export interface KeptColumn {
  readonly name: string;
  readonly type: ScalarType;
}

/**
 * The kept documents' columns when they are not all Parquet of one schema:
 * `id`, `text`, then every other field whose values are all scalars, in
 * first-seen order, typed from the values. Each document is staged as a JSON
 * line (its scalar fields; bigint exact), as the columns are known only after
 * the last one.
 */
export class KeptSchemaInference {
  private readonly kinds = new Map<string, Set<Kind>>();

  /** Notes the document's fields; returns its staged JSON line (without newline). */
  stage(document: {
    readonly id: string;
    readonly text: string;
    readonly record?: Readonly<Record<string, unknown>>;
  }): string {
    const row: Record<string, unknown> = { id: document.id, text: document.text };
    for (const [name, value] of Object.entries(document.record ?? {})) {
      if (name === 'id' || name === 'text') continue;
      let kinds = this.kinds.get(name);
      if (kinds === undefined) this.kinds.set(name, (kinds = new Set()));
      const kind = kindOf(value);
      if (kind !== undefined) kinds.add(kind);
      if (kind !== 'nested') row[name] = value;
    }
    return jsonText(row);
  }

  columns(): KeptColumn[] {
    const columns: KeptColumn[] = [
      { name: 'id', type: 'STRING' },
      { name: 'text', type: 'STRING' },
    ];
    for (const [name, kinds] of this.kinds) {
      const type = typeOf(kinds);
      if (type !== undefined) columns.push({ name, type });
    }
    return columns;
  }

  /** A staged line's values, in columns() order. */
  static values(line: string, columns: readonly KeptColumn[]): { values: unknown[]; textLength: number } {
    const row = parseJsonExact(line) as Record<string, unknown>;
    return {
      values: columns.map(({ name, type }) => toColumnValue(row[name], type)),
      textLength: (row.text as string).length,
    };
  }
}
