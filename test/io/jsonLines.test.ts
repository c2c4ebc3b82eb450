// The reading rules of JSON Lines and Parquet documents that messages depend on: an --id-field that a
// document lacks is an error naming the field and the place, as a missing --text-field is (the default `id`
// keeps its fallback to line and row numbers); input that is not one object per line says what is expected.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_READ, InputError } from '../../src/io/documents.js';
import { parseJsonLine } from '../../src/io/jsonLines.js';
import { listInputFiles, readDocuments } from '../../src/io/readDocuments.js';
import { runCli, tempDir, runCliHere } from '../support/cli.js';

const dir = tempDir('gpudedup-jsonlines-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const parse = (line: string, path = 'c.jsonl', idField = 'id') =>
  parseJsonLine(line, path, 3, false, { textField: 'text', idField });
const messageOf = (result: ReturnType<typeof parse>): string =>
  result instanceof InputError ? result.message : `no error (id ${result.id})`;

async function idsOf(path: string, idField: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const doc of readDocuments(await listInputFiles([path]), { ...DEFAULT_READ, idField })) ids.push(doc.id);
  return ids;
}

describe('--id-field', () => {
  it('the default field id is optional: a document without it is named by its line', () => {
    const doc = parse('{"text":"hello"}');
    expect(doc instanceof InputError ? doc.message : doc.id).toBe('3');
    expect(messageOf(parse('{"text":"hello","id":null}'))).toBe('no error (id 3)');
  });

  it('a field named with --id-field that a document lacks is an error naming the field, the line and the fields it has', () => {
    expect(messageOf(parse('{"text":"hello","uid":7}', 'c.jsonl', 'doc_id'))).toBe(
      'c.jsonl:3: missing id field "doc_id" (its fields: "text", "uid")',
    );
    expect(messageOf(parse('{"text":"hello","doc_id":null}', 'c.jsonl', 'doc_id'))).toBe(
      'c.jsonl:3: id field "doc_id" is null',
    );
    expect(messageOf(parse('{"text":"hello","doc_id":"a-1"}', 'c.jsonl', 'doc_id'))).toBe('no error (id a-1)');
    // As for the text field.
    expect(messageOf(parse('{"body":"hello"}'))).toBe('c.jsonl:3: missing text field "text" (its fields: "body")');
  });

  it('on the command line: one line naming the file and the first line without it, exit 1', async () => {
    const corpus = join(dir, 'ids.jsonl');
    writeFileSync(corpus, '{"doc_id":"a","text":"one"}\n{"text":"two"}\n');
    const result = await runCli([
      'sign',
      corpus,
      '--id-field',
      'doc_id',
      '-o',
      join(dir, 'ids.npy'),
      '--backend',
      'cpu',
      '-q',
    ]);
    expect(result.stderr).toBe(`gpudedup: ${corpus}:2: missing id field "doc_id" (its fields: "text")\n`);
    expect(result.code).toBe(1);
  });

  it('Parquet: a file without the named id column is refused up front; the default id falls back to row numbers', async () => {
    const path = join(dir, 'noid.parquet');
    const buffer = parquetWriteBuffer({ columnData: [{ name: 'text', data: ['one', 'two'], type: 'STRING' }] });
    writeFileSync(path, new Uint8Array(buffer));
    expect(await idsOf(path, 'id')).toEqual(['1', '2']);
    await expect(idsOf(path, 'doc_id')).rejects.toThrow(
      `${path}: no id column "doc_id" (columns: text); choose one with --id-field`,
    );
    const withNull = join(dir, 'nullid.parquet');
    const nulls = parquetWriteBuffer({
      columnData: [
        { name: 'text', data: ['one', 'two'], type: 'STRING' },
        { name: 'doc_id', data: ['a', null], type: 'STRING' },
      ],
    });
    writeFileSync(withNull, new Uint8Array(nulls));
    await expect(idsOf(withNull, 'doc_id')).rejects.toThrow(`${withNull}:2: row group 0: id column "doc_id" is null`);
  });
});

describe('input that is not one JSON object per line', () => {
  it('a JSON object over several lines (a .json file holding {"data": [...]}) says what is expected', async () => {
    const path = join(dir, 'object.json');
    writeFileSync(path, JSON.stringify({ data: [{ text: 'one' }, { text: 'two' }] }, null, 2));
    const result = await runCliHere(['sign', path, '-o', join(dir, 'object.npy'), '--backend', 'cpu', '-q']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^gpudedup: ${path}:1: malformed JSON \\(.*; expected one JSON object per line\\)\\n$`),
    );
  });

  it('plain text on standard input says that standard input is JSON Lines', async () => {
    const result = await runCli(
      ['sign', '-', '-o', join(dir, 'stdin.npy'), '--backend', 'cpu', '-q'],
      'hello world\nsecond line\n',
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^gpudedup: -:1: malformed JSON \(.*; expected one JSON object per line: standard input is read as JSON Lines, give plain text as a file\)\n$/,
    );
  });

  it('a line that is JSON but not an object names what it is', () => {
    expect(messageOf(parse('42'))).toBe('c.jsonl:3: expected a JSON object, not a number');
    expect(messageOf(parse('[{"text":"x"}]'))).toBe('c.jsonl:3: expected a JSON object, not an array');
  });
});
