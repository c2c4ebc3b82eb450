/**
 * The browser app's in-memory Parquet (parquetBuffer.ts) against the CLI's
 * files (keptDocuments.ts, openTable.ts) for the same rows, read by DuckDB:
 * same columns, types, rows; snappy.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { InputDocument } from '../../../src/io/documents.js';
import { openKeptDocuments } from '../../../src/formats/keptDocuments.js';
import { openTable } from '../../../src/formats/openTable.js';
import { ParquetBuffer, ParquetTableBuffer } from '../../../src/formats/parquet/parquetBuffer.js';
import { flatSchema, KeptSchemaInference, type ScalarType } from '../../../src/formats/parquet/parquetSchema.js';
import { rows, sqlString, withDuckDB } from '../../support/duckdb.js';

const dir = mkdtempSync(join(tmpdir(), 'gpudedup-parquet-buffer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const records: Record<string, unknown>[] = [
  { id: 'a', text: 'first', n: 1, score: 0.5, flag: true, tags: ['x'], mixed: 1, big: 9007199254740993n },
  { id: 'b', text: 'second\nline', n: null, score: 2, flag: false, tags: { y: 1 }, mixed: 'two' },
  { id: 'c', text: 'ü ∑ 😀', n: -7, flag: null, mixed: true, extra: 'late' },
];
const documents: InputDocument[] = records.map((record, index) => ({
  index,
  id: record.id as string,
  text: record.text as string,
  source: { path: 'in.jsonl', line: index + 1 },
  record,
}));

async function same(
  db: Parameters<Parameters<typeof withDuckDB>[0]>[0],
  a: string,
  b: string,
): Promise<Record<string, unknown>[]> {
  const read = (p: string) => rows(db, `SELECT * FROM read_parquet(${sqlString(p)})`);
  const schema = (p: string) =>
    rows(db, `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${sqlString(p)}))`);
  expect(await read(b)).toEqual(await read(a));
  expect(await schema(b)).toEqual(await schema(a));
  expect(
    (await rows(db, `SELECT DISTINCT compression FROM parquet_metadata(${sqlString(b)})`)).map((r) => r.compression),
  ).toEqual(['SNAPPY']);
  return read(b);
}

describe('Parquet in memory (the browser app) like the CLI files', () => {
  it('kept documents: id, text and the scalar fields typed from their values, row groups split by rows', async () => {
    const cli = join(dir, 'cli-kept.parquet');
    const kept = await openKeptDocuments(cli, [{ path: 'in.jsonl', format: 'jsonl' }]);
    for (const d of documents) await kept.write(d);
    await kept.commit();
    const inference = new KeptSchemaInference();
    const staged = documents.map((d) => inference.stage(d));
    const columns = inference.columns();
    const buffer = new ParquetBuffer(flatSchema(columns), 2);
    for (const line of staged) {
      const { values, textLength } = KeptSchemaInference.values(line, columns);
      buffer.add(values, textLength);
    }
    const app = join(dir, 'app-kept.parquet');
    writeFileSync(app, Buffer.concat(buffer.finish()));
    await withDuckDB(async (db) => {
      const read = await same(db, cli, app);
      expect(Object.keys(read[0])).toEqual(['id', 'text', 'n', 'score', 'flag', 'mixed', 'big', 'extra']);
      expect(read.map((r) => r.text)).toEqual(records.map((r) => r.text));
      expect(read[0].big).toBe(9007199254740993n);
      expect(
        (await rows(db, `SELECT count(*) AS n FROM parquet_metadata(${sqlString(app)}) WHERE column_id = 0`))[0].n,
      ).toBe(2n);
    });
  });

  it('a table (clusters): STRING, INT64, BOOLEAN', async () => {
    const columns: [string, ScalarType][] = [
      ['id', 'STRING'],
      ['cluster', 'INT64'],
      ['kept', 'BOOLEAN'],
    ];
    const cells: [string, number, boolean][] = [
      ['a', 0, true],
      ['b', 0, false],
      ['c', 2, true],
    ];
    const cli = join(dir, 'cli-clusters.parquet');
    const table = await openTable(cli, columns);
    for (const row of cells) await table.row(row);
    await table.commit();
    const buffer = new ParquetTableBuffer(columns, 131_072);
    for (const row of cells) buffer.row(row);
    const app = join(dir, 'app-clusters.parquet');
    writeFileSync(app, Buffer.concat(buffer.finish()));
    await withDuckDB(async (db) => {
      expect(await same(db, cli, app)).toEqual(
        cells.map(([id, cluster, kept]) => ({ id, cluster: BigInt(cluster), kept })),
      );
    });
  });
});
