// The round trip (issue 19): Parquet inputs with a column of every type pyarrow writes, and JSON Lines with
// big integers, decimals as strings, CRLF and invalid UTF-8, deduplicated to Parquet and to JSON Lines; pyarrow
// (test/support/roundTrip.py) and DuckDB check that every kept row equals its input row, value for value.
// pyarrow comes from PyPI (scripts/install-python-tests.sh, run by .ci/run): under CI a missing pyarrow fails.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, runCliHere } from '../support/cli.js';
import { rows, sqlString, withDuckDB } from '../support/duckdb.js';

const SCRIPT = join(process.cwd(), 'test/support/roundTrip.py');
const underCi = !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());

function hasPyarrow(): boolean {
  try {
    execFileSync('python3', ['-c', 'import pyarrow'], { stdio: 'ignore' });
    return true;
  } catch {
    if (underCi)
      throw new Error(
        'python3 cannot import pyarrow (scripts/install-python-tests.sh installs it; CI is set, so this fails instead of skipping)',
      );
    return false;
  }
}

interface Check {
  readonly ok: boolean;
  readonly problems: string[];
  /** As strings: JSON.parse would round them. */
  readonly ids: string[];
  readonly verbatim?: string[];
  readonly columns?: number;
  readonly skipped?: Record<string, string>;
}

function pyarrow(...args: string[]): Check {
  return JSON.parse(execFileSync('python3', [SCRIPT, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 })) as Check;
}

const run = hasPyarrow();
const dir = run ? tempDir('gpudedup-round-trip-') : '';
const path = (name: string): string => join(dir, name);

async function dedup(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return runCliHere(['dedup', ...args, '--backend', 'cpu', '--threads', '1', '-q']);
}

async function dedupOk(args: string[]): Promise<void> {
  const result = await dedup(args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

describe.runIf(run)('round trip: every kept row equals its input row, value for value', () => {
  let written: Check;
  beforeAll(async () => {
    written = pyarrow('write', dir);
    await Promise.all([
      dedupOk([path('all-types.parquet'), '-o', path('kept.parquet')]),
      dedupOk([path('all-types.parquet'), '-o', path('kept.jsonl')]),
      dedupOk([path('values.jsonl'), '-o', path('values-kept.parquet'), '--clusters', path('values-clusters.csv')]),
      dedupOk([path('values.jsonl'), '-o', path('values-kept.jsonl')]),
    ]);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a column of every type pyarrow writes to Parquet', () => {
    expect(written.skipped).toEqual({});
    expect(pyarrow('parquet', path('all-types.parquet'), path('all-types.parquet')).columns).toBeGreaterThan(55);
  });

  it('Parquet to Parquet: the same Arrow schema, the same Parquet column types, every value (pyarrow)', () => {
    const check = pyarrow('parquet', path('all-types.parquet'), path('kept.parquet'));
    expect(check.problems).toEqual([]);
    expect(check.ids).toEqual(['0', '1', '2', '3', '4', '5']);
  });

  it('Parquet to Parquet: DuckDB reads the same column types and the same rows', async () => {
    await withDuckDB(async (db) => {
      const input = `read_parquet(${sqlString(path('all-types.parquet'))})`;
      const kept = `read_parquet(${sqlString(path('kept.parquet'))})`;
      expect(await rows(db, `describe select * from ${kept}`)).toEqual(
        await rows(db, `describe select * from ${input}`),
      );
      const same = `select * from ${input} where id in (select id from ${kept})`;
      expect(await rows(db, `select count(*) as n from (select * from ${kept} except all ${same})`)).toEqual([
        { n: 0n },
      ]);
      expect(await rows(db, `select count(*) as n from (${same} except all select * from ${kept})`)).toEqual([
        { n: 0n },
      ]);
      expect(await rows(db, `select count(*) as n from ${kept}`)).toEqual([{ n: 6n }]);
    });
  });

  it('Parquet to JSON Lines: the mapping of docs/inputs-outputs.md, the same for every row (checked by an independent Python mapping)', () => {
    const check = pyarrow('json', path('all-types.parquet'), path('kept.jsonl'));
    expect(check.problems).toEqual([]);
    expect(check.ids).toEqual(['0', '1', '2', '3', '4', '5']);
  });

  it('JSON Lines to Parquet: ids beyond 2^53 kept apart and exact, integers INT64 or DECIMAL(38,0), decimal strings as strings', () => {
    const check = pyarrow('jsonl-parquet', path('values.jsonl'), path('values-kept.parquet'));
    expect(check.problems).toEqual([]);
    const kept = [1460323737035677698n, 1460323737035677699n, 9007199254740993n, 9007199254740992n];
    expect(check.ids.map((id) => BigInt(id))).toEqual(kept);
    const clusters = readFileSync(path('values-clusters.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    expect(clusters).toEqual([...kept.map(String), '1460323737035677700', '1460323737035677701']);
  });

  it('JSON Lines to JSON Lines: every kept line has its input values (big integers to the digit)', () => {
    const check = pyarrow('jsonl', path('values.jsonl'), path('values-kept.jsonl'));
    expect(check.problems).toEqual([]);
    expect(check.ids.map((id) => BigInt(id))).toEqual([
      1460323737035677698n,
      1460323737035677699n,
      9007199254740993n,
      9007199254740992n,
    ]);
  });

  it('refuses, before any work, a Parquet output of an INT96 column, naming the file and the column', async () => {
    // Without -q: the one line is all it prints, so no backend was chosen and nothing was read or signed.
    const result = await runCli(['dedup', path('int96.parquet'), '-o', path('int96-kept.parquet'), '--backend', 'cpu']);
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringContaining(`${path('int96.parquet')}: column "ts" is an INT96 timestamp`),
    ]);
    expect(existsSync(path('int96-kept.parquet'))).toBe(false);
    await dedupOk([path('int96.parquet'), '-o', path('int96-kept.jsonl')]);
    expect(readFileSync(path('int96-kept.jsonl'), 'utf8')).toContain('"ts":"1970-01-01T00:00:00.000000001"');
  });
});

if (!run)
  describe('round trip', () =>
    it.skip('needs python3 with pyarrow (scripts/install-python-tests.sh)', () => undefined));
