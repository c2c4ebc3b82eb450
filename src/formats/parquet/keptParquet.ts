/**
 * Kept Parquet rows written back under their input's schema, every column's
 * physical and logical type and every value as read (no I/O). The reader's
 * exact values (io/parquetValues.ts) become what hyparquet-writer takes:
 * decimal strings their unscaled bigints, ISO timestamps their integers, maps
 * their entries. Where hyparquet-writer would convert a value itself (JSON,
 * BSON, INTERVAL, GEOMETRY, GEOGRAPHY, VARIANT), the column is written
 * without its annotation, as the bytes read, and the file's footer names the
 * annotation: `writeSchema` while writing, `footerSchema` in the footer, and
 * no statistics for those columns (their bounds would be computed on bytes).
 *
 * hyparquet-writer 0.17 writes the INTEGER logical type's bit width as a
 * thrift i32 where readers expect a byte ("Couldn't deserialize thrift"), so
 * both schemas give the integer width by its converted type (INT_8 … UINT_64)
 * alone, which readers take as the same logical type.
 */
import { parquetSchema, type ConvertedType, type FileMetaData, type SchemaElement, type SchemaTree } from 'hyparquet';
import {
  decimalScale,
  decimalUnscaled,
  isListGroup,
  isMapGroup,
  listElement,
  structConverter,
  timestampUnit,
  timestampValue,
  type Convert,
} from '../../io/parquetValues.js';

export interface KeptParquetPlan {
  readonly writeSchema: SchemaElement[];
  readonly footerSchema: SchemaElement[];
  readonly columns: readonly KeptParquetColumn[];
}

export interface KeptParquetColumn {
  readonly name: string;
  /** From the record's value to hyparquet-writer's; undefined when the same. */
  readonly convert?: Convert;
  readonly statistics: boolean;
}

/** A top-level column hyparquet-writer cannot write exactly, and why. */
export interface UnwritableColumn {
  readonly column: string;
  readonly reason: string;
}

function writtenAsBytes(element: SchemaElement): boolean {
  const converted = element.converted_type;
  const logical = element.logical_type?.type;
  return (
    converted === 'JSON' ||
    converted === 'BSON' ||
    converted === 'INTERVAL' ||
    ['JSON', 'BSON', 'GEOMETRY', 'GEOGRAPHY', 'VARIANT'].includes(logical ?? '')
  );
}

const INTEGER_TYPES: Record<string, ConvertedType> = {
  '8,true': 'INT_8',
  '16,true': 'INT_16',
  '32,true': 'INT_32',
  '64,true': 'INT_64',
  '8,false': 'UINT_8',
  '16,false': 'UINT_16',
  '32,false': 'UINT_32',
  '64,false': 'UINT_64',
};

function integerByConvertedType(element: SchemaElement): SchemaElement {
  const logical = element.logical_type;
  if (logical?.type !== 'INTEGER') return element;
  return {
    ...element,
    logical_type: undefined,
    converted_type: element.converted_type ?? INTEGER_TYPES[`${logical.bitWidth},${logical.isSigned}`],
  };
}

/** The first column that cannot be written back exactly, else undefined: refused before any work. */
export function unwritableColumn(schema: SchemaElement[]): UnwritableColumn | undefined {
  for (const column of parquetSchema({ schema } as FileMetaData).children) {
    const reason = unwritable(column);
    if (reason !== undefined) return { column: column.element.name, reason };
  }
  return undefined;
}

function unwritable(tree: SchemaTree, repeatable = false): string | undefined {
  const { element } = tree;
  if (element.type === 'INT96') return 'is an INT96 timestamp, which gpudedup cannot write to Parquet';
  if (element.converted_type === 'LIST' && (!isListGroup(tree) || tree.children[0].children.length === 0)) {
    return 'is a list in a legacy layout (not a repeated group of one element)';
  }
  if (isMapGroup(element) && (tree.children.length !== 1 || tree.children[0].children.length !== 2))
    return 'is a map in a legacy layout (not a repeated group of key and value)';
  if (element.repetition_type === 'REPEATED' && !repeatable) return 'is a repeated field outside a LIST or MAP';
  const wrapper = isListGroup(tree) || isMapGroup(element);
  for (const child of tree.children) {
    const reason = unwritable(child, wrapper);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/** How to write rows of `schema` (checked with unwritableColumn first). */
export function keptParquetPlan(schema: SchemaElement[]): KeptParquetPlan {
  const footerSchema = schema.map(integerByConvertedType);
  const writeSchema = footerSchema.map((element) =>
    writtenAsBytes(element) ? { ...element, converted_type: undefined, logical_type: undefined } : element,
  );
  const columns = parquetSchema({ schema } as FileMetaData).children.map((column) => ({
    name: column.element.name,
    convert: writerConverter(column),
    statistics: !hasBytesColumn(column),
  }));
  return { writeSchema, footerSchema, columns };
}

function hasBytesColumn(tree: SchemaTree): boolean {
  return writtenAsBytes(tree.element) || tree.children.some(hasBytesColumn);
}

/** parquetValues' exactConverter, backwards. */
function writerConverter(column: SchemaTree): Convert | undefined {
  const { element } = column;
  if (column.children.length === 0) {
    const scale = decimalScale(element);
    if (scale !== undefined) return (v) => (typeof v === 'string' ? decimalUnscaled(v, scale) : v);
    const timestamp = timestampUnit(element);
    if (timestamp !== undefined) return (v) => (typeof v === 'string' ? timestampValue(v, timestamp.unit) : v);
    return undefined;
  }
  if (isMapGroup(element)) {
    const [key, value] = column.children[0].children.map((child) => writerConverter(child) ?? ((v: unknown) => v));
    return (map) =>
      Array.isArray(map)
        ? (map as { key: unknown; value: unknown }[]).map((e) => ({ key: key(e.key), value: value(e.value) }))
        : map;
  }
  if (isListGroup(column)) {
    const item = writerConverter(listElement(column));
    return item && ((list) => (list == null ? null : (list as unknown[]).map(item)));
  }
  return structConverter(column.children.map((child) => [child.element.name, writerConverter(child)] as const));
}
