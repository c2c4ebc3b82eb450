// --weights idf through the built CLI (the runs after a command's first, and the refusals, in this process:
// runCliHere): the table written by --idf FILE and read back (the same signatures, the same
// identity, the file unchanged), recorded in the sidecar and shard metadata with the table's identity, signatures
// equal to the BigInt reference of the idf elements, mixing refused (another weighting, another table, other
// shingles), and exact verification deciding on idf-weighted Jaccard.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readShardMeta } from '../../src/formats/shards/shardSet.js';
import { readSignatureFile } from '../../src/formats/shards/signatureFile.js';
import { decodeIdfTable } from '../../src/shingles/idfTable.js';
import { registerIdfTable } from '../../src/shingles/idfWeights.js';
import { shingleDocumentReference } from '../../src/shingles/shingles.js';
import { makeParams, paramDifferences, shingleOptionsOf } from '../../src/signatures/params.js';
import { pairsToBigInts, signatureRef } from '../support/reference.js';
import { runCli, runCliHere, tempDir } from '../support/cli.js';

const lines = gunzipSync(readFileSync('data/sample.jsonl.gz'))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .slice(0, 40);
const CPU = ['--backend', 'cpu', '--threads', '1', '-q'];

function corpus(dir: string, name: string, rows: readonly string[]): string {
  const path = join(dir, name);
  writeFileSync(path, rows.join('\n') + '\n');
  return path;
}

describe('sign --weights idf --idf FILE', () => {
  it('writes the table, records its identity, signs the reference idf elements; the table read back signs the same', async () => {
    const dir = tempDir();
    const input = corpus(dir, 'in.jsonl', lines);
    const table = join(dir, 't.idf');
    const [a, b, c] = ['a.npy', 'b.npy', 'c.npy'].map((name) => join(dir, name));
    const first = await runCli(['sign', input, '-o', a, '--weights', 'idf', '--idf', table, '-k', '16', ...CPU]);
    expect(first.stderr).toBe('');
    const bytes = readFileSync(table);
    const idf = decodeIdfTable(new Uint8Array(bytes), table);
    expect(idf.documents).toBe(lines.length);
    const sidecar = JSON.parse(readFileSync(`${a}.json`, 'utf8')) as { params: { weights?: string; idf?: string } };
    expect(sidecar.params).toMatchObject({ weights: 'idf', idf: idf.identity });
    // Read back: the same table, the same signatures; counted again without keeping it: the same identity.
    expect(
      (await runCliHere(['sign', input, '-o', b, '--weights', 'idf', '--idf', table, '-k', '16', ...CPU])).stderr,
    ).toBe('');
    expect(readFileSync(table)).toEqual(bytes);
    expect(readFileSync(b)).toEqual(readFileSync(a));
    expect((await runCliHere(['sign', input, '-o', c, '--weights', 'idf', '-k', '16', ...CPU])).stderr).toBe('');
    expect(readFileSync(c)).toEqual(readFileSync(a));

    registerIdfTable(idf);
    const params = makeParams({ k: 16, weights: 'idf', idf: idf.identity });
    const file = await readSignatureFile(a, params);
    lines.forEach((line, d) => {
      const text = (JSON.parse(line) as { text: string }).text;
      const elements = pairsToBigInts(shingleDocumentReference(text, shingleOptionsOf(params)));
      expect(pairsToBigInts(file.words.subarray(32 * d, 32 * (d + 1)))).toEqual(signatureRef(elements, 16, 42n));
    });
  });

  it('refuses mixing: another weighting, another table, a table of other shingles, --idf alone', async () => {
    const dir = tempDir();
    const input = corpus(dir, 'in.jsonl', lines);
    const half = corpus(dir, 'half.jsonl', lines.slice(0, 20));
    const [table, other] = [join(dir, 't.idf'), join(dir, 'other.idf')];
    const out = join(dir, 'sigs.npy');
    await runCliHere(['sign', input, '-o', out, '--weights', 'idf', '--idf', table, ...CPU]);
    await runCliHere(['sign', half, '-o', join(dir, 'half.npy'), '--weights', 'idf', '--idf', other, ...CPU]);
    const dedup = (...args: string[]) => runCliHere(['dedup', input, '--signatures', out, '--dry-run', ...args, '-q']);
    expect((await dedup('--idf', table)).stderr).toBe('');
    expect((await dedup()).stderr).toBe(''); // the corpus counted again: the same table
    expect((await dedup('--weights', 'none')).stderr).toMatch(/other weights \(weights: none vs idf\)/);
    expect((await dedup('--idf', other)).stderr).toMatch(
      /signed with another idf table \(idf: [0-9a-f]{32} vs [0-9a-f]{32}\)/,
    );
    const shingles = await runCliHere([
      'sign',
      input,
      '-o',
      join(dir, 'n4.npy'),
      '--weights',
      'idf',
      '--idf',
      table,
      '-n',
      '4',
      '-q',
    ]);
    expect(shingles.code).toBe(1);
    expect(shingles.stderr).toMatch(
      /t\.idf: this idf table was counted with other shingles \(n: 5 in the table vs 4\)/,
    );
    const alone = await runCliHere(['sign', input, '-o', join(dir, 'x.npy'), '--idf', table, '-q']);
    expect(alone.stderr).toMatch(/--idf FILE goes with --weights idf/);
    const ids = ['0'.repeat(32), '1'.repeat(32)];
    expect(
      paramDifferences(makeParams({ weights: 'idf', idf: ids[0] }), makeParams({ weights: 'idf', idf: ids[1] })),
    ).toEqual([`idf: ${ids[0]} vs ${ids[1]}`]);
    expect(() => makeParams({ weights: 'idf' })).toThrow(/needs its table's identity/);
    expect(() => makeParams({ weights: 'counts', idf: ids[0] })).toThrow(/goes with --weights idf/);
  });

  it('sign --shard records the table in the metadata; cluster refuses shards of two tables', async () => {
    const dir = tempDir();
    const input = corpus(dir, 'in.jsonl', lines);
    const shards = [join(dir, 's1.parquet'), join(dir, 's2.parquet')];
    await runCliHere(['sign', input, '--shard', '1/2', '-o', shards[0], '--weights', 'idf', ...CPU]);
    await runCliHere(['sign', input, '--shard', '2/2', '-o', shards[1], '--weights', 'idf', '-n', '4', ...CPU]);
    const [m1, m2] = [await readShardMeta(shards[0]), await readShardMeta(shards[1])];
    expect(m1.params.weights).toBe('idf');
    expect(m1.params.idf).toMatch(/^[0-9a-f]{32}$/);
    expect(m2.params.idf).not.toBe(m1.params.idf);
    const cluster = await runCliHere(['cluster', ...shards, '--clusters', join(dir, 'c.csv'), '-q']);
    expect(cluster.code).toBe(1);
    expect(cluster.stderr).toMatch(/idf: [0-9a-f]{32} vs [0-9a-f]{32}/);
  });
});

describe('index create --weights idf', () => {
  it('keeps the table in the index (the manifest records its identity); add and query sign with it; a changed table is refused', async () => {
    const dir = tempDir();
    const input = corpus(dir, 'in.jsonl', lines.slice(0, 30));
    const more = corpus(dir, 'more.jsonl', lines.slice(30));
    const [index, table] = [join(dir, 'index'), join(dir, 't.idf')];
    const created = await runCli(['index', 'create', index, input, '--weights', 'idf', '--idf', table, ...CPU]);
    expect(created.stderr).toBe('');
    const identity = decodeIdfTable(new Uint8Array(readFileSync(table)), table).identity;
    const manifest = JSON.parse(readFileSync(join(index, 'manifest.json'), 'utf8')) as {
      parameters: { weights?: string; idf?: string };
    };
    expect(manifest.parameters).toMatchObject({ weights: 'idf', idf: identity });
    expect(readFileSync(join(index, 'idf-table.bin'))).toEqual(readFileSync(table));
    expect((await runCli(['index', 'add', index, more, '-q'])).stderr).toBe('');
    // An indexed document queried: signed with the index's weights, it finds itself (estimate and exact 1).
    const query = await runCli(['query', index, corpus(dir, 'q.jsonl', [lines[35]])]);
    const id = (JSON.parse(lines[35]) as { id: string }).id;
    expect(JSON.parse(query.stdout.split('\n')[0])).toEqual({ id, matches: [{ id, similarity: 1, exact: 1 }] });
    // Another table in its place (counted from fewer documents): refused, naming the file.
    const other = join(dir, 'other.idf');
    const fewer = corpus(dir, 'fewer.jsonl', lines.slice(0, 20));
    await runCliHere(['sign', fewer, '-o', join(dir, 'x.npy'), '--weights', 'idf', '--idf', other, '-q']);
    writeFileSync(join(index, 'idf-table.bin'), readFileSync(other));
    const refused = await runCliHere(['query', index, join(dir, 'q.jsonl')]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/corrupt index: .*idf-table\.bin: it is table [0-9a-f]{32}, the manifest records/);
  });
});

describe('dedup --weights idf', () => {
  it('exact verification decides on idf-weighted Jaccard: shared boilerplate alone no longer makes near-duplicates', async () => {
    const dir = tempDir();
    const boilerplate = Array.from({ length: 100 }, (_, i) => `b${i}`).join(' ');
    // Each document: the boilerplate, then 10 words of its own. Sets: Jaccard 96 / 116 ≈ 0.83 for every pair. idf:
    // the boilerplate's shingles are in every document (weight 1), the own ones in one (weight 8): 96 / 256 = 0.375.
    const rows = Array.from({ length: 50 }, (_, d) =>
      JSON.stringify({
        id: `d${d}`,
        text: `${boilerplate} ${Array.from({ length: 10 }, (_, i) => `u${d}x${i}`).join(' ')}`,
      }),
    );
    const input = corpus(dir, 'in.jsonl', rows);
    const removed = async (weights: string): Promise<number> => {
      const report = join(dir, `${weights}.json`);
      const args = ['dedup', input, '--weights', weights, '--verify', 'exact', '--threshold', '0.8', '--dry-run'];
      const result = await runCliHere([...args, '--report', report, ...CPU]);
      expect(result.stderr).toBe('');
      return (JSON.parse(readFileSync(report, 'utf8')) as { removed: number }).removed;
    };
    expect(await removed('none')).toBe(49);
    expect(await removed('idf')).toBe(0);
  });

  it('standard input is copied to a file first, so the table is counted from it: the same result as the file', async () => {
    const dir = tempDir();
    const input = corpus(dir, 'in.jsonl', lines);
    const run = async (name: string, args: string[], stdin?: string): Promise<unknown> => {
      const report = join(dir, `${name}.json`);
      const r = await runCli(
        ['dedup', ...args, '--weights', 'idf', '--verify', 'estimate', '--dry-run', '--report', report, ...CPU],
        stdin,
      );
      expect(r.stderr).toBe('');
      const { removed, clusters } = JSON.parse(readFileSync(report, 'utf8')) as { removed: number; clusters: number };
      return { removed, clusters };
    };
    expect(await run('stdin', ['-'], readFileSync(input, 'utf8'))).toEqual(await run('file', [input]));
  });
});
