// Parquet outputs of dedup read back by an independent reader (DuckDB): the rows and columns expected.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, runCliHere } from '../support/cli.js';
import { rows, sqlString, withDuckDB } from '../support/duckdb.js';
import { formatCorpus, toJsonLines } from '../support/formatCorpus.js';

const dir = tempDir('gpudedup-parquet-out-');
const jsonl = join(dir, 'corpus.jsonl');
const typed = join(dir, 'typed.parquet');
const path = (name: string): string => join(dir, name);

async function dedup(args: string[]): Promise<void> {
  const result = await runCliHere(['dedup', ...args, '--backend', 'cpu', '--threads', '1', '-q']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

const columnsOf = async (file: string): Promise<string[]> =>
  withDuckDB(async (db) =>
    (await rows(db, `describe select * from ${sqlString(file)}`)).map((r) => `${r.column_name} ${r.column_type}`),
  );

beforeAll(async () => {
  // Mixed-type and nested fields: a nested field is left out of the inferred schema, a mixed one becomes a string.
  const records = formatCorpus()
    .slice(0, 500)
    .map((r, i) => ({ ...r, meta: { n: i }, mixed: i % 2 ? 'x' : i, ratio: i / 3 }));
  writeFileSync(jsonl, toJsonLines(records));
  await withDuckDB(async (db) => {
    await db.run(
      `copy (select id, text, score, lang, score * 0.5 as half, score % 2 = 0 as even, timestamp '2024-01-01 00:00:00' + to_seconds(score::bigint) as at, ` +
        `[lang, id] as tags, {'lang': lang, 'score': score} as info, case when score % 5 = 0 then null else score::int end as maybe ` +
        `from read_json(${sqlString(jsonl)}, format = 'newline_delimited')) to ${sqlString(typed)} (format parquet, row_group_size 100)`,
    );
  });
  await Promise.all([
    dedup([jsonl, '-o', path('kept.jsonl'), '--clusters', path('clusters.csv')]),
    dedup([
      jsonl,
      '-o',
      path('kept.parquet'),
      '--clusters',
      path('clusters.parquet'),
      '--pairs',
      path('pairs.parquet'),
    ]),
  ]);
});

describe('dedup -o x.parquet and --clusters x.parquet, read back by DuckDB', () => {
  it('from JSON Lines: id, text and the scalar fields, typed by their values; the kept rows in order', async () => {
    expect(await columnsOf(path('kept.parquet'))).toEqual([
      'id VARCHAR',
      'text VARCHAR',
      'score BIGINT',
      'lang VARCHAR',
      'mixed VARCHAR',
      'ratio DOUBLE',
    ]);
    await withDuckDB(async (db) => {
      const kept = await rows(db, `select id, text, score, lang, ratio from ${sqlString(path('kept.parquet'))}`);
      const expected = await rows(
        db,
        `select id, text, score, lang, ratio from read_json(${sqlString(path('kept.jsonl'))}, format = 'newline_delimited')`,
      );
      expect(kept.length).toBeGreaterThan(400);
      expect(kept.length).toBeLessThan(500);
      expect(kept).toEqual(expected);
    });
  });

  it("from JSON Lines without ids: each kept row's id is the one the clusters table gives it (its line; with several inputs, path:line)", async () => {
    const [a, b] = [path('no-ids-a.jsonl'), path('no-ids-b.jsonl')];
    const texts = formatCorpus()
      .slice(0, 60)
      .map((r) => ({ text: r.text }));
    writeFileSync(a, toJsonLines(texts.slice(0, 30)));
    writeFileSync(b, toJsonLines(texts.slice(30)));
    for (const inputs of [[a], [a, b]]) {
      const [out, clusters] = [path(`no-ids-${inputs.length}.parquet`), path(`no-ids-${inputs.length}.csv`)];
      await dedup([...inputs, '-o', out, '--clusters', clusters]);
      await withDuckDB(async (db) => {
        const kept = (await rows(db, `select id from ${sqlString(out)}`)).map((r) => r.id);
        const expected = await rows(
          db,
          `select id from read_csv(${sqlString(clusters)}, header = true, all_varchar = true) where kept = 'true'`,
        );
        expect(kept.length).toBeGreaterThan(20);
        expect(kept, inputs.join(' ')).toEqual(expected.map((r) => r.id));
      });
    }
  });

  it('clusters and pairs as Parquet: the rows of the CSV, typed', async () => {
    expect(await columnsOf(path('clusters.parquet'))).toEqual(['id VARCHAR', 'cluster BIGINT', 'kept BOOLEAN']);
    expect(await columnsOf(path('pairs.parquet'))).toEqual([
      'id_a VARCHAR',
      'id_b VARCHAR',
      'estimate DOUBLE',
      'exact DOUBLE',
    ]); // hybrid (the default): exact where computed, null where the estimate decided
    await withDuckDB(async (db) => {
      const parquet = await rows(db, `select * from ${sqlString(path('clusters.parquet'))}`);
      const csv = await rows(
        db,
        `select id, cluster::bigint as cluster, kept::boolean as kept from read_csv(${sqlString(path('clusters.csv'))}, header = true, all_varchar = true)`,
      );
      expect(parquet.length).toBe(500);
      expect(parquet).toEqual(csv);
      // The empty exact cells of the CSV (pairs the estimate decided) are nulls in Parquet, never 0.
      const pairs = path('pairs.parquet');
      const [zeros] = await rows(
        db,
        `select count(*) filter (where exact = 0) as zero, count(*) filter (where exact is null) as missing from ${sqlString(pairs)}`,
      );
      expect(Number(zeros.zero)).toBe(0);
      expect(Number(zeros.missing)).toBeGreaterThan(0);
    });
  });

  it.each(['snappy', 'zstd', 'gzip', 'none'])(
    'from Parquet, --compression %s: the input schema and the kept rows as they were',
    async (compression) => {
      const out = path(`typed-kept-${compression}.parquet`);
      const clusters = path(`typed-clusters-${compression}.csv`);
      await dedup([typed, '-o', out, '--clusters', clusters, '--compression', compression]);
      expect(await columnsOf(out)).toEqual(await columnsOf(typed));
      await withDuckDB(async (db) => {
        const codecs = await rows(db, `select distinct compression from parquet_metadata(${sqlString(out)})`);
        expect(codecs.map((r) => r.compression)).toEqual([
          compression === 'none' ? 'UNCOMPRESSED' : compression.toUpperCase(),
        ]);
        const kept = await rows(db, `select * from ${sqlString(out)}`);
        const expected = await rows(
          db,
          `select t.* from ${sqlString(typed)} t join (select id from read_csv(${sqlString(clusters)}, header = true, all_varchar = true) where kept = 'true') k using (id)`,
        );
        // DuckDB's join does not keep order: compare as sets here, and the order against the input's below.
        const key = (r: Record<string, unknown>): string =>
          JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
        expect(kept.map(key).sort()).toEqual(expected.map(key).sort());
        expect(kept.length).toBeGreaterThan(400);
        const order = (await rows(db, `select id from ${sqlString(typed)}`)).map((r) => r.id);
        const keptIds = kept.map((r) => r.id);
        expect(keptIds).toEqual(order.filter((id) => keptIds.includes(id)));
      });
    },
  );

  it('from Parquet to JSON Lines: each kept row as a JSON object of its scalar and nested columns', async () => {
    const out = path('typed-kept.jsonl');
    const parquet = path('typed-kept-for-jsonl.parquet');
    await Promise.all([dedup([typed, '-o', out]), dedup([typed, '-o', parquet])]);
    await withDuckDB(async (db) => {
      const fromJson = await rows(
        db,
        `select id, text, score, lang, even, tags, info.score as info_score from read_json(${sqlString(out)}, format = 'newline_delimited')`,
      );
      const fromParquet = await rows(
        db,
        `select id, text, score, lang, even, tags, info.score as info_score from ${sqlString(parquet)}`,
      );
      expect(fromJson.length).toBeGreaterThan(400);
      expect(fromJson).toEqual(fromParquet);
    });
  });
});
