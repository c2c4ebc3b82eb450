// Outputs compressed by their names, read back by independent readers (zlib's gunzip, DuckDB's zstd and gzip).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BufferedFile } from '../../src/formats/files/tableWriter.js';
import { flatSchema, ParquetFile } from '../../src/formats/parquet/parquetFile.js';
import { listInputFiles, readDocuments } from '../../src/io/readDocuments.js';
import { tempDir, runCliHere } from '../support/cli.js';
import { rows, sqlString, withDuckDB } from '../support/duckdb.js';
import { formatCorpus, toJsonLines } from '../support/formatCorpus.js';

describe('compressed outputs', () => {
  it('a zstd file of many frames and a gzip file read back whole (DuckDB, zlib)', async () => {
    const dir = tempDir('gpudedup-compressed-');
    // About 6 MB of lines: several 1 MB buffers, so several zstd frames.
    const lines = Array.from({ length: 60_000 }, (_, i) =>
      JSON.stringify({ id: i, text: `line ${i} ${'x'.repeat(i % 150)}` }),
    );
    for (const name of ['many.jsonl.zst', 'many.jsonl.gz']) {
      const file = await BufferedFile.create(join(dir, name));
      for (const line of lines) await file.write(line + '\n');
      await file.commit();
    }
    expect(gunzipSync(readFileSync(join(dir, 'many.jsonl.gz'))).toString('utf8')).toBe(lines.join('\n') + '\n');
    const zst = readFileSync(join(dir, 'many.jsonl.zst'));
    expect([...zst.subarray(0, 4)]).toEqual([0x28, 0xb5, 0x2f, 0xfd]);
    expect(zst.length).toBeLessThan(6_000_000 / 4);
    await withDuckDB(async (db) => {
      for (const name of ['many.jsonl.zst', 'many.jsonl.gz']) {
        const back = await rows(
          db,
          `select id::int as id, text from read_json(${sqlString(join(dir, name))}, format = 'newline_delimited')`,
        );
        expect(back.length).toBe(lines.length);
        expect(back.map((r) => JSON.stringify(r))).toEqual(lines);
      }
    });
  });

  it('dedup writes -o, --clusters and --pairs compressed by name, with the content of the uncompressed run', async () => {
    const dir = tempDir('gpudedup-compressed-');
    const input = join(dir, 'corpus.jsonl');
    writeFileSync(input, toJsonLines(formatCorpus().slice(0, 600)));
    const run = async (suffix: string): Promise<void> => {
      const result = await runCliHere([
        'dedup',
        input,
        '-o',
        join(dir, `kept.jsonl${suffix}`),
        '--clusters',
        join(dir, `clusters.csv${suffix}`),
        '--pairs',
        join(dir, `pairs.jsonl${suffix}`),
        '--backend',
        'cpu',
        '-q',
      ]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    };
    await Promise.all(['', '.gz', '.zst'].map(run));
    for (const name of ['kept.jsonl', 'clusters.csv', 'pairs.jsonl']) {
      const plain = readFileSync(join(dir, name), 'utf8');
      expect(plain.split('\n').length).toBeGreaterThan(10);
      expect(gunzipSync(readFileSync(join(dir, `${name}.gz`))).toString('utf8')).toBe(plain);
    }
    await withDuckDB(async (db) => {
      const read = (path: string, csv: boolean): Promise<Record<string, unknown>[]> =>
        rows(
          db,
          csv
            ? `select * from read_csv(${sqlString(path)}, header = true, all_varchar = true)`
            : `select * from read_json(${sqlString(path)}, format = 'newline_delimited')`,
        );
      for (const [name, csv] of [
        ['kept.jsonl', false],
        ['clusters.csv', true],
        ['pairs.jsonl', false],
      ] as const) {
        expect(await read(join(dir, `${name}.zst`), csv)).toEqual(await read(join(dir, name), csv));
      }
    });
  });

  it('zstd JSON Lines and zstd Parquet written by one process both decode (one zstd instance, regression)', async () => {
    // A second WebAssembly init() for the Parquet writer once made its later pages garbage.
    const dir = tempDir('gpudedup-compressed-');
    const records = formatCorpus();
    const jsonl = await BufferedFile.create(join(dir, 'first.jsonl.zst'));
    await jsonl.write(toJsonLines([...records, ...records, ...records]));
    await jsonl.commit();
    const path = join(dir, 'second.parquet');
    const file = await ParquetFile.create(
      path,
      flatSchema([
        { name: 'id', type: 'STRING' },
        { name: 'text', type: 'STRING' },
      ]),
      { compression: 'zstd' },
    );
    for (let start = 0; start < records.length; start += 500) {
      const group = records.slice(start, start + 500);
      await file.writeRowGroup([
        { name: 'id', data: group.map((r) => r.id) },
        { name: 'text', data: group.map((r) => r.text) },
      ]);
    }
    await file.commit();
    const texts: string[] = [];
    for await (const doc of readDocuments(await listInputFiles([path]))) texts.push(doc.text);
    expect(texts).toEqual(records.map((r) => r.text));
    await withDuckDB(async (db) => {
      const back = await rows(db, `select text from ${sqlString(path)}`);
      expect(back.map((r) => r.text)).toEqual(texts);
    });
  });
});
