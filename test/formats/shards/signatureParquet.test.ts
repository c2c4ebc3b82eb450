// `gpudedup sign -o sigs.parquet`: read by DuckDB as the .npy's matrix, read back by dedup with the .npy's checks.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readSignatureFile } from '../../../src/formats/shards/signatureFile.js';
import { tempDir, runCliHere } from '../../support/cli.js';
import { rows, sqlString, withDuckDB } from '../../support/duckdb.js';
import { formatCorpus, toJsonLines } from '../../support/formatCorpus.js';
import { expectSameWords } from '../../support/sameWords.js';

const dir = tempDir('gpudedup-sig-parquet-');
const corpus = join(dir, 'corpus.jsonl');
const path = (name: string): string => join(dir, name);

async function cli(args: string[]): Promise<void> {
  const result = await runCliHere([...args, '--backend', 'cpu', '--threads', '1', '-q']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

beforeAll(async () => {
  const records = formatCorpus().slice(100, 700);
  records.splice(
    3,
    0,
    { id: 'empty-a', text: '', score: 0, lang: 'en' },
    { id: 'empty-b', text: ' \n\t ', score: 0, lang: 'en' },
  );
  writeFileSync(corpus, toJsonLines(records));
  const signs: string[][] = [];
  for (const bits of ['64', '32']) {
    for (const ext of ['npy', 'parquet'])
      signs.push(['sign', corpus, '-o', path(`sigs${bits}.${ext}`), '-k', '24', '--slot-bits', bits]);
  }
  for (let i = 0; i < signs.length; i += 2) await Promise.all(signs.slice(i, i + 2).map(cli));
});

describe('signatures as Parquet', () => {
  it.each([64, 32] as const)(
    '%i-bit slots: DuckDB reads id and s0…s23 as unsigned integers equal to the .npy, and the parameters from the metadata',
    async (bits) => {
      const npy = await readSignatureFile(path(`sigs${bits}.npy`));
      const parquet = path(`sigs${bits}.parquet`);
      await withDuckDB(async (db) => {
        const columns = (await rows(db, `describe select * from ${sqlString(parquet)}`)).map(
          (r) => `${r.column_name} ${r.column_type}`,
        );
        const slotType = bits === 64 ? 'UBIGINT' : 'UINTEGER';
        expect(columns).toEqual(['id VARCHAR', ...Array.from({ length: 24 }, (_, i) => `s${i} ${slotType}`)]);
        const table = await rows(db, `select * from ${sqlString(parquet)}`);
        expect(table.map((r) => r.id)).toEqual(npy.ids);
        const width = bits === 64 ? 48 : 24;
        const expectedSlot = (d: number, i: number): bigint =>
          bits === 64
            ? (BigInt(npy.words[d * width + 2 * i + 1]) << 32n) | BigInt(npy.words[d * width + 2 * i])
            : BigInt(npy.words[d * width + i]);
        for (let d = 0; d < table.length; d++) {
          for (let i = 0; i < 24; i++) expect(BigInt(table[d][`s${i}`] as number | bigint)).toBe(expectedSlot(d, i));
        }
        // The empty documents' rows are all-ones, the largest unsigned value: no sign trouble.
        expect(BigInt(table[3].s0 as bigint)).toBe(bits === 64 ? 2n ** 64n - 1n : 2n ** 32n - 1n);
        const [meta] = await rows(
          db,
          `select decode(value) as value from parquet_kv_metadata(${sqlString(parquet)}) where decode(key) = 'gpudedup'`,
        );
        const head = JSON.parse(meta.value as string);
        expect(head.params).toEqual(npy.params);
        expect(head.empty).toEqual(npy.empty);
        expect(head.documents).toBe(npy.ids.length);
      });
      const back = await readSignatureFile(parquet, npy.params);
      expect(back.ids).toEqual(npy.ids);
      expect(back.empty).toEqual([3, 4]);
      expect(back.empty).toEqual(npy.empty);
      expectSameWords(back.words, npy.words);
    },
  );

  it('dedup --signatures sigs.parquet clusters as with the .npy, with or without the corpus', async () => {
    await Promise.all([
      cli([
        'dedup',
        corpus,
        '--signatures',
        path('sigs64.parquet'),
        '--clusters',
        path('c-parquet.csv'),
        '-o',
        path('k-parquet.jsonl'),
      ]),
      cli([
        'dedup',
        corpus,
        '--signatures',
        path('sigs64.npy'),
        '--clusters',
        path('c-npy.csv'),
        '-o',
        path('k-npy.jsonl'),
      ]),
    ]);
    await Promise.all([
      cli(['dedup', '--signatures', path('sigs32.parquet'), '--clusters', path('c32-parquet.csv')]),
      cli(['dedup', '--signatures', path('sigs32.npy'), '--clusters', path('c32-npy.csv')]),
    ]);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path('c-parquet.csv'), 'utf8')).toBe(readFileSync(path('c-npy.csv'), 'utf8'));
    expect(readFileSync(path('k-parquet.jsonl'), 'utf8')).toBe(readFileSync(path('k-npy.jsonl'), 'utf8'));
    expect(readFileSync(path('c32-parquet.csv'), 'utf8')).toBe(readFileSync(path('c32-npy.csv'), 'utf8'));
    expect(
      readFileSync(path('c-parquet.csv'), 'utf8')
        .split('\n')
        .filter((l) => l.endsWith(',false')).length,
    ).toBeGreaterThan(10);
  });

  it('refuses other parameters, a corpus that is not the one signed, --resume, and a Parquet file without gpudedup metadata', async () => {
    const fail = async (args: string[]): Promise<string> => {
      const result = await runCliHere([...args, '--backend', 'cpu', '-q']);
      expect(result.code).toBe(1);
      return result.stderr;
    };
    expect(
      await fail(['dedup', corpus, '--signatures', path('sigs64.parquet'), '--seed', '7', '--report', path('r.json')]),
    ).toMatch(/sigs64\.parquet: signatures were made with different parameters \(file vs this run\): seed/);
    const other = path('other.jsonl');
    writeFileSync(other, toJsonLines(formatCorpus().slice(0, 50)));
    expect(await fail(['dedup', other, '--signatures', path('sigs64.parquet'), '--report', path('r.json')])).toMatch(
      /not the corpus that was signed/,
    );
    expect(await fail(['sign', corpus, '-o', path('resumed.parquet'), '--resume'])).toMatch(
      /--resume needs a \.npy output/,
    );
    await withDuckDB((db) =>
      db.run(`copy (select 'a' as id, 1::ubigint as s0) to ${sqlString(path('foreign.parquet'))} (format parquet)`),
    );
    expect(await fail(['dedup', '--signatures', path('foreign.parquet'), '--report', path('r.json')])).toMatch(
      /foreign\.parquet: not a gpudedup-signatures v1 Parquet file/,
    );
  });
});
