// Which input schemas can be written back exactly, and how: refusals name the column; INTEGER widths go by converted type.
import type { SchemaElement } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { keptParquetPlan, unwritableColumn } from '../../../src/formats/parquet/keptParquet.js';

const root = (n: number): SchemaElement => ({ name: 'root', num_children: n });
const text: SchemaElement = { name: 'text', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' };

describe('unwritableColumn', () => {
  it('refuses INT96, a legacy two-level list and a repeated top-level field, naming the column', () => {
    expect(unwritableColumn([root(2), text, { name: 'ts', type: 'INT96', repetition_type: 'OPTIONAL' }])).toEqual({
      column: 'ts',
      reason: expect.stringContaining('INT96'),
    });
    const legacyList: SchemaElement[] = [
      root(2),
      text,
      { name: 'tags', converted_type: 'LIST', num_children: 1, repetition_type: 'OPTIONAL' },
      { name: 'array', type: 'BYTE_ARRAY', repetition_type: 'REPEATED' },
    ];
    expect(unwritableColumn(legacyList)?.column).toBe('tags');
    expect(unwritableColumn([root(2), text, { name: 'xs', type: 'INT32', repetition_type: 'REPEATED' }])).toEqual({
      column: 'xs',
      reason: 'is a repeated field outside a LIST or MAP',
    });
  });

  it('accepts a standard three-level list and map', () => {
    const schema: SchemaElement[] = [
      root(3),
      text,
      { name: 'l', converted_type: 'LIST', num_children: 1, repetition_type: 'OPTIONAL' },
      { name: 'list', num_children: 1, repetition_type: 'REPEATED' },
      { name: 'element', type: 'INT64', repetition_type: 'OPTIONAL' },
      { name: 'm', converted_type: 'MAP', num_children: 1, repetition_type: 'OPTIONAL' },
      { name: 'key_value', num_children: 2, repetition_type: 'REPEATED' },
      { name: 'key', type: 'INT32', repetition_type: 'REQUIRED' },
      { name: 'value', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
    ];
    expect(unwritableColumn(schema)).toBeUndefined();
  });
});

describe('keptParquetPlan', () => {
  it('gives integer widths by converted type alone, writes JSON columns as bytes without statistics, and converts decimals and timestamps back', () => {
    const schema: SchemaElement[] = [
      root(4),
      {
        name: 'u8',
        type: 'INT32',
        repetition_type: 'OPTIONAL',
        logical_type: { type: 'INTEGER', bitWidth: 8, isSigned: false },
      },
      {
        name: 'j',
        type: 'BYTE_ARRAY',
        repetition_type: 'OPTIONAL',
        converted_type: 'JSON',
        logical_type: { type: 'JSON' },
      },
      {
        name: 'd',
        type: 'FIXED_LEN_BYTE_ARRAY',
        type_length: 8,
        repetition_type: 'OPTIONAL',
        converted_type: 'DECIMAL',
        scale: 5,
        precision: 18,
        logical_type: { type: 'DECIMAL', scale: 5, precision: 18 },
      },
      {
        name: 't',
        type: 'INT64',
        repetition_type: 'OPTIONAL',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'NANOS' },
      },
    ];
    const plan = keptParquetPlan(schema);
    expect(plan.footerSchema[1]).toEqual({ ...schema[1], logical_type: undefined, converted_type: 'UINT_8' });
    expect(plan.footerSchema[2]).toEqual(schema[2]);
    expect(plan.writeSchema[2]).toEqual({ ...schema[2], converted_type: undefined, logical_type: undefined });
    expect(plan.columns.map((c) => c.statistics)).toEqual([true, false, true, true]);
    const [, , decimal, timestamp] = plan.columns;
    expect(decimal.convert?.('-0.00001')).toBe(-1n);
    expect(timestamp.convert?.('2262-04-11T23:47:16.854775807')).toBe(2n ** 63n - 1n);
  });
});
