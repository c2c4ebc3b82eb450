// Input formats against an independent writer: DuckDB writes the corpus as Parquet (each codec, several row
// groups), zstd JSON Lines and shards; gpudedup must read the same documents and find the same clusters.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { listInputFiles, readDocuments } from '../../src/io/readDocuments.js';
import { DEFAULT_READ } from '../../src/io/documents.js';
import { localParquetFile } from '../../src/io/localParquetFile.js';
import { openParquet, readParquetDocuments } from '../../src/io/parquetDocuments.js';
import { runCli, tempDir } from '../support/cli.js';
import { PARQUET_CODECS, rows, sqlString, withDuckDB } from '../support/duckdb.js';
import { formatCorpus, toJsonLines } from '../support/formatCorpus.js';

const corpus = formatCorpus();
const dir = tempDir('gpudedup-readers-');
const jsonl = join(dir, 'corpus.jsonl');
const parquet = (codec: string): string => join(dir, `corpus-${codec}.parquet`);
const zst = join(dir, 'corpus.jsonl.zst');
const shards = join(dir, 'shards');
const rowGroups = new Map<string, number>();

beforeAll(async () => {
  writeFileSync(jsonl, toJsonLines(corpus));
  mkdirSync(shards);
  await withDuckDB(async (db) => {
    await db.run(`create table corpus as select * from read_json(${sqlString(jsonl)}, format = 'newline_delimited')`);
    // DuckDB rounds row_group_size up to its vector size (2,048 rows): 100 gives groups of 2,048.
    for (const codec of PARQUET_CODECS) {
      await db.run(
        `copy corpus to ${sqlString(parquet(codec))} (format parquet, compression ${codec}, row_group_size 100)`,
      );
      const [{ groups }] = await rows(
        db,
        `select count(distinct row_group_id)::int as groups from parquet_metadata(${sqlString(parquet(codec))})`,
      );
      rowGroups.set(codec, groups as number);
    }
    await db.run(`copy corpus to ${sqlString(zst)} (format json, compression zstd)`);
    // Shards named so that sorted order is input order (part-10 after part-2 would not be).
    const bounds = [0, 700, 1500, corpus.length];
    for (let s = 0; s < 3; s++) {
      await db.run(
        `copy (select * from corpus limit ${bounds[s + 1] - bounds[s]} offset ${bounds[s]}) to ${sqlString(join(shards, `part-${s}.parquet`))} (format parquet)`,
      );
    }
  });
});

async function documentsOf(path: string): Promise<{ id: string; text: string }[]> {
  const out: { id: string; text: string }[] = [];
  for await (const doc of readDocuments(await listInputFiles([path]), DEFAULT_READ))
    out.push({ id: doc.id, text: doc.text });
  return out;
}

const expected = corpus.map((r) => ({ id: r.id, text: r.text }));

describe('input formats read the documents an independent writer wrote', () => {
  it.each(PARQUET_CODECS)('Parquet, %s, several row groups', async (codec) => {
    expect(rowGroups.get(codec)).toBeGreaterThanOrEqual(2);
    expect(await documentsOf(parquet(codec))).toEqual(expected);
  });

  it('Parquet rows carry their columns as the record (INT64 as bigint)', async () => {
    const files = await listInputFiles([parquet('snappy')]);
    expect(files[0].format).toBe('parquet');
    const records = [];
    for await (const doc of readDocuments(files, DEFAULT_READ)) records.push(doc.record);
    expect(records.map((r) => [r?.id, Number(r?.score), r?.lang])).toEqual(corpus.map((r) => [r.id, r.score, r.lang]));
    expect(typeof records[0]?.score).toBe('bigint');
  });

  it('zstd JSON Lines, by name and by content', async () => {
    expect(await documentsOf(zst)).toEqual(expected);
    const renamed = join(dir, 'corpus-zstd.jsonl');
    copyFileSync(zst, renamed);
    expect(await documentsOf(renamed)).toEqual(expected);
  });

  it('a directory of Parquet shards, in sorted order', async () => {
    expect(await documentsOf(shards)).toEqual(expected);
  });

  it('Parquet is read one row group at a time: the first document needs no byte of a later row group', async () => {
    const path = join(dir, 'three-groups.parquet');
    // Hardly compressible text: row groups of ~0.5 MB (DuckDB cuts them by rows or by size).
    await withDuckDB((db) =>
      db.run(
        `copy (select 'd' || i as id, (select string_agg(md5(i::varchar || '-' || j::varchar), ' ') from range(16) r(j)) as text ` +
          `from range(6144) t(i)) to ${sqlString(path)} (format parquet, row_group_size 100)`,
      ),
    );
    let fetched = 0;
    const local = await localParquetFile(path, () => undefined);
    const file = {
      byteLength: local.file.byteLength,
      slice: (start: number, end?: number) => {
        fetched += (end ?? local.file.byteLength) - start;
        return local.file.slice(start, end);
      },
    };
    try {
      const { metadata } = await openParquet(file, path);
      const groups = metadata.row_groups.map((g) => Number(g.total_compressed_size ?? 0n));
      expect(groups.length).toBeGreaterThanOrEqual(3);
      expect(Math.min(groups[0], groups[1])).toBeGreaterThan(400_000);
      fetched = 0;
      const documents = readParquetDocuments(file, path, false, DEFAULT_READ);
      const first = await documents.next();
      expect(first.value?.id).toBe('d0');
      // The footer (hyparquet fetches the last 512 KB) and row group 0, not the later row groups.
      expect(fetched).toBeLessThanOrEqual(groups[0] + 512 * 1024 + 4096);
      let count = 1;
      for await (const _ of documents) count++;
      expect(count).toBe(6144);
      expect(fetched).toBeGreaterThan(groups.reduce((a, b) => a + b, 0));
    } finally {
      await local.close();
    }
  });

  it('a Parquet file is detected by its content whatever its name', async () => {
    const renamed = join(dir, 'corpus-parquet.jsonl');
    copyFileSync(parquet('zstd'), renamed);
    expect(await documentsOf(renamed)).toEqual(expected);
  });
});

describe('gpudedup dedup on each input format finds the clusters it finds on JSON Lines', () => {
  const clustersOf = async (input: string, name: string, extra: string[] = []): Promise<string> => {
    const out = join(dir, `clusters-${name}.csv`);
    const result = await runCli([
      'dedup',
      input,
      '--clusters',
      out,
      '--backend',
      'cpu',
      '--threads',
      '1',
      '-q',
      ...extra,
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return readFileSync(out, 'utf8');
  };

  let reference: Promise<string> | undefined;
  const referenceClusters = (): Promise<string> =>
    (reference ??= clustersOf(jsonl, 'jsonl', ['--keep', 'field:score']));

  it('the JSON Lines reference has planted duplicates to find', async () => {
    const lines = (await referenceClusters()).trim().split('\n');
    expect(lines.length).toBe(corpus.length + 1);
    expect(lines.filter((line) => line.endsWith(',false')).length).toBeGreaterThan(100);
  });

  const inputs: [string, () => string][] = [
    ...PARQUET_CODECS.map((codec): [string, () => string] => [`Parquet ${codec}`, () => parquet(codec)]),
    ['zstd JSON Lines', () => zst],
    [
      'gzip JSON Lines',
      () => {
        const gz = join(dir, 'corpus.jsonl.gz');
        writeFileSync(gz, gzipSync(readFileSync(jsonl)));
        return gz;
      },
    ],
    ['a directory of Parquet shards', () => shards],
  ];
  it.each(inputs)('%s', async (name, path) => {
    expect(await clustersOf(path(), name.replace(/ /g, '-'), ['--keep', 'field:score'])).toBe(
      await referenceClusters(),
    );
  });
});

describe('bad Parquet and zstd inputs are refused naming the file and the row group or row', () => {
  const bad = join(dir, 'bad');
  beforeAll(async () => {
    mkdirSync(bad);
    await withDuckDB(async (db) => {
      const write = (sql: string, name: string): Promise<unknown> =>
        db.run(`copy (${sql}) to ${sqlString(join(bad, name))} (format parquet, row_group_size 100)`);
      await write(`select 'a' || i as id, ['some text', 'more'] as text from range(3) t(i)`, 'nested.parquet');
      await write(`select 'a' || i as id, i as text from range(3) t(i)`, 'integer.parquet');
      await write(`select 'a' || i as id, {'x': 'text'} as text from range(3) t(i)`, 'struct.parquet');
      await write(
        `select 'a' || i as id, case when i = 2500 then null else 'text number ' || i end as text from range(3000) t(i)`,
        'null.parquet',
      );
    });
    writeFileSync(join(bad, 'fake.parquet'), '{"text": "not parquet"}\n');
    const zstBytes = readFileSync(zst);
    writeFileSync(join(bad, 'truncated.jsonl.zst'), zstBytes.subarray(0, zstBytes.length - 7));
  });

  const fails = async (args: string[], stdin?: Buffer): Promise<string> => {
    const result = await runCli(['dedup', ...args, '--report', join(dir, 'r.json'), '--backend', 'cpu', '-q'], stdin);
    expect(result.code).toBe(1);
    return result.stderr;
  };

  it('nested or non-string text columns', async () => {
    expect(await fails([join(bad, 'nested.parquet')])).toMatch(
      /nested\.parquet: text column "text" is nested \(LIST\), not a string/,
    );
    expect(await fails([join(bad, 'struct.parquet')])).toMatch(/struct\.parquet: text column "text" is nested/);
    expect(await fails([join(bad, 'integer.parquet')])).toMatch(
      /integer\.parquet: text column "text" has type INT64, not a string/,
    );
  });

  it('a missing text column lists the columns there are', async () => {
    expect(await fails([parquet('snappy'), '--text-field', 'body'])).toMatch(
      /no text column "body" \(columns: id, text, score, lang\)/,
    );
  });

  it('a null text names the row and its row group; --skip-invalid skips it', async () => {
    expect(await fails([join(bad, 'null.parquet')])).toMatch(
      /null\.parquet:2501: row group 1: text column "text" is null, not a string/,
    );
    const result = await runCli([
      'dedup',
      join(bad, 'null.parquet'),
      '--skip-invalid',
      '--report',
      join(dir, 'skip.json'),
      '--backend',
      'cpu',
      '-q',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'skip.json'), 'utf8')).documents).toBe(2999);
  });

  it('a .parquet file that is not Parquet, Parquet on standard input, a truncated zstd stream', async () => {
    expect(await fails([join(bad, 'fake.parquet')])).toMatch(
      /fake\.parquet: not a Parquet file \(it does not start with PAR1\)/,
    );
    expect(await fails(['-'], readFileSync(parquet('snappy')))).toMatch(/Parquet cannot be read from standard input/);
    expect(await fails([join(bad, 'truncated.jsonl.zst')])).toMatch(/truncated\.jsonl\.zst: not a valid zstd stream/);
  });
});

describe("the browser app's units (web/webSources.ts) on the same files", () => {
  const webDocuments = async (path: string, name: string) => {
    const { webInputUnits, BROWSER_SOURCES } = await import('../../web/webSources.js');
    const { unitDocuments } = await import('../../src/firstPass/unitDocuments.js');
    const file = new File([readFileSync(path)], name);
    const out: { id: string; text: string; record?: Record<string, unknown> }[] = [];
    for await (const doc of unitDocuments(
      webInputUnits([file]),
      { textField: 'text', idField: 'id', skipInvalid: false, strict: false },
      BROWSER_SOURCES,
    ))
      out.push(doc);
    return out;
  };

  it.each(['snappy', 'zstd'])("Parquet (%s), through File.slice, with the CLI's kept rows", async (codec) => {
    const docs = await webDocuments(parquet(codec), `corpus-${codec}.parquet`);
    expect(docs.map(({ id, text }) => ({ id, text }))).toEqual(expected);
    // A kept Parquet row is written back as the CLI writes it: the JSON object of its columns.
    const { documentAsJson } = await import('../../src/io/documents.js');
    const cli: string[] = [];
    for await (const doc of readDocuments(await listInputFiles([parquet(codec)]), DEFAULT_READ))
      cli.push(documentAsJson(doc));
    expect(docs.map((d) => documentAsJson(d))).toEqual(cli);
  });

  it("zstd JSON Lines, streamed through the CLI's decoder", async () => {
    const docs = await webDocuments(zst, 'corpus.jsonl.zst');
    expect(docs.map(({ id, text }) => ({ id, text }))).toEqual(expected);
  });
});
