/** `index remove --ids FILE`: ids from plain lines, CSV, JSON Lines and Parquet; bad rows named by file and line. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readIdList } from '../../src/formats/idList.js';
import { openTable } from '../../src/formats/openTable.js';
import { tempDir } from '../support/tempDirs.js';

describe('readIdList', () => {
  const dir = tempDir();
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('one id per line, trimmed, blank lines skipped, a BOM dropped', async () => {
    expect(await readIdList(file('ids.txt', '\uFEFFa\r\n  b c \n\n3\n'))).toEqual(['a', 'b c', '3']);
  });

  it('CSV by its header (quoted cells), the id column or --id-field', async () => {
    expect(await readIdList(file('ids.csv', 'x,id\n1,"a,b"\n2,c\n'))).toEqual(['a,b', 'c']);
    expect(await readIdList(file('k.csv', 'key\nz\n'), 'key')).toEqual(['z']);
    await expect(readIdList(file('no.csv', 'key\nz\n'))).rejects.toThrow(/no\.csv:1: the header has no "id" column/);
  });

  it('JSON Lines: the id field, numbers as text; a line without it named', async () => {
    expect(await readIdList(file('ids.jsonl', '{"id":"a"}\n{"id":7}\n'))).toEqual(['a', '7']);
    await expect(readIdList(file('bad.jsonl', '{"id":"a"}\n{"name":"b"}\n'))).rejects.toThrow(
      /bad\.jsonl:2: no "id" field/,
    );
    await expect(readIdList(file('bad2.jsonl', '{"id":"a"}\n{oops\n'))).rejects.toThrow(/bad2\.jsonl:2: not JSON/);
  });

  it('Parquet: the id column', async () => {
    const path = join(dir, 'ids.parquet');
    const table = await openTable(path, [
      ['id', 'STRING'],
      ['n', 'INT64'],
    ]);
    await table.row(['p', 1]);
    await table.row(['q', 2]);
    await table.commit();
    expect(await readIdList(path)).toEqual(['p', 'q']);
    await expect(readIdList(path, 'nope')).rejects.toThrow(/no "nope" column/);
  });
});
