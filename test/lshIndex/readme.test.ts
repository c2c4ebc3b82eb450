// The persistent-index example of docs/library.md, run as written (imports from the package entry point),
// and its document table read by pyarrow and DuckDB as docs/index.md says.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import {
  createIndex,
  openIndex,
  createMemoryIndex,
  inlineIndexSigner,
  resolveIndexParameters,
} from '../../src/index.js';
import { rows, sqlString, withDuckDB } from '../support/duckdb.js';
import { tempDir } from '../support/tempDirs.js';

const base =
  'the quick brown fox jumps over the lazy dog and then runs far away into the deep green woods beyond the river';

it('creates, adds, queries and refreshes as in docs/library.md', async () => {
  const dir = join(tempDir(), 'corpus.index');
  const logged: unknown[] = [];
  const console = { log: (...args: unknown[]) => logged.push(args) };
  // --- docs/library.md example ---
  const index = await createIndex(dir, { threshold: 0.8, k: 128 }); // the dedup options; refuses an existing index
  const { decisions } = await index.add([
    { id: 'a', text: base },
    { id: 'b', text: `${base} today` },
  ]); // { all: true } appends every one
  for (const d of decisions) if (!d.added) console.log(d.id, 'matches', d.matches); // [{ id, similarity, exact? }]
  await index.close();

  const reader = await openIndex(dir, { readOnly: true }); // no writer lock; any number of readers
  const [result] = await reader.query([base.toUpperCase()], { top: 5 }); // without top: every match at the threshold
  await reader.refresh(); // picks up the writer's newer commits
  await reader.close();
  // --- end ---
  expect(decisions.map((d) => d.added)).toEqual([true, false]);
  expect(logged).toHaveLength(1);
  expect(result.matches).toEqual([{ id: 'a', similarity: 1, exact: 1 }]); // exact: the index stores sets

  const memory = createMemoryIndex({
    threshold: 0.8,
    signer: inlineIndexSigner(resolveIndexParameters({ threshold: 0.8 })),
  });
  expect(
    (
      await memory.add([
        { id: 'a', text: base },
        { id: 'b', text: `${base} today` },
      ])
    ).decisions,
  ).toEqual(decisions);
});

const hasPython = (module: string): boolean => {
  try {
    execFileSync('python3', ['-c', `import ${module}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

async function twoSegments(): Promise<string> {
  const dir = join(tempDir(), 'corpus.index');
  const index = await createIndex(dir);
  await index.add([
    { id: 'a', text: base },
    { id: 'é', text: 'another text altogether, with its own words' },
    { id: 'empty', text: '' },
  ]);
  await index.add([{ id: 'z', text: 'a third segment of words that are new here' }]);
  await index.close();
  return dir;
}

it.skipIf(!hasPython('pyarrow'))('the document table reads in pyarrow, as docs/index.md says', async () => {
  const dir = await twoSegments();
  const program = `
import json, sys, pyarrow.parquet as pq
d = sys.argv[1]
m = json.load(open(f"{d}/manifest.json"))
live = [pq.read_table(f"{d}/{s['files']['documents']['name']}") for s in m['segments']]
print(json.dumps([r for t in live for r in t.to_pylist()]))
`;
  const rows = JSON.parse(execFileSync('python3', ['-c', program, dir], { encoding: 'utf8' }));
  expect(rows.map((r: { id: string; row: number; empty: boolean }) => [r.id, r.row, r.empty])).toEqual([
    ['a', 0, false],
    ['é', 1, false],
    ['empty', 2, true],
    ['z', 0, false],
  ]);
  expect(rows[0].exact_key).toMatch(/^[0-9a-f]{32}$/);
});

it('the document table reads in DuckDB, as docs/index.md says', async () => {
  const dir = await twoSegments();
  const found = await withDuckDB((db) =>
    rows(db, `SELECT id, row, length FROM read_parquet(${sqlString(`${dir}/seg-*.docs.parquet`)}) ORDER BY id`),
  );
  expect(found.map((r) => [r.id, Number(r.row), Number(r.length)])).toEqual([
    ['a', 0, base.length],
    ['empty', 2, 0],
    ['z', 0, 42],
    ['é', 1, 43],
  ]);
});
