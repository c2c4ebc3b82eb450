/**
 * `sign --shard I/N` on files reads only its own pieces: over several JSON
 * Lines files, one big JSON Lines file and one Parquet file of many row
 * groups, 2 and 4 shards together read at most 1.1× the corpus's bytes, and
 * their union is exactly the unsharded run's rows (same ids, same signatures
 * and band keys), each at its global position once the shards' offsets are
 * added; the positions are checked against the readers' own document order.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ShardMeta } from '../../../src/formats/shards/shardFile.js';
import { checkShardSet, readShardMeta } from '../../../src/formats/shards/shardSet.js';
import { globalPosition, rangeOffsets } from '../../../src/formats/shards/shardRanges.js';
import { DEFAULT_READ } from '../../../src/io/documents.js';
import { listInputFiles, readDocuments } from '../../../src/io/readDocuments.js';
import { runSignShard, type SignShardConfig } from '../../../src/pipeline/sign/signShard.js';
import { makeParams } from '../../../src/signatures/params.js';
import { tempDir } from '../../support/cli.js';

const dir = tempDir();
const sample = gunzipSync(readFileSync('data/sample.jsonl.gz'))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { id: string; text: string });

/** 180 licence texts (about 1.3 MB) with short synthetic documents between them, some repeated. */
function records(): { id: string; text: string }[] {
  const out: { id: string; text: string }[] = [];
  sample.slice(0, 180).forEach((r, i) => {
    out.push({ id: r.id, text: r.text });
    out.push({ id: `s${i}`, text: `short document ${i % 40} about shards and byte ranges` });
  });
  return out;
}

const lines = (rs: readonly { id: string; text: string }[]): string =>
  rs.map((r) => JSON.stringify(r)).join('\n') + '\n';

const corpora: Record<string, string[]> = {};

beforeAll(() => {
  const rs = records();
  const big = join(dir, 'big.jsonl');
  writeFileSync(big, lines(rs));
  const cuts = [0, 30, 120, 140, 250, 330, rs.length];
  const several = cuts.slice(1).map((end, i) => {
    const path = join(dir, `part-${i}.jsonl`);
    writeFileSync(path, lines(rs.slice(cuts[i], end)));
    return path;
  });
  const parquet = join(dir, 'corpus.parquet');
  const columnData = [
    { name: 'id', data: rs.map((r) => r.id), type: 'STRING' as const },
    { name: 'text', data: rs.map((r) => r.text), type: 'STRING' as const },
  ];
  writeFileSync(parquet, Buffer.from(parquetWriteBuffer({ columnData, rowGroupSize: 24 })));
  Object.assign(corpora, {
    'several JSON Lines files': several,
    'one big JSON Lines file': [big],
    'one Parquet file of 15 row groups': [parquet],
  });
});

const params = makeParams({ k: 16 });

function config(inputs: string[], index: number, count: number, out: string): SignShardConfig {
  return {
    inputs,
    read: DEFAULT_READ,
    params,
    threshold: 0.8,
    lsh: { bands: 4, rows: 4 },
    shard: { index, count },
    backend: 'cpu',
    threads: 1,
    out,
  };
}

type Row = Record<string, unknown>;

async function rowsOf(path: string): Promise<Row[]> {
  return (await parquetReadObjects({ file: await asyncBufferFromFile(path) })) as Row[];
}

/** The shards' rows at their global positions, checked to be one set. */
async function union(paths: string[]): Promise<{ rows: Row[]; metas: ShardMeta[] }> {
  const metas = await Promise.all(paths.map(readShardMeta));
  checkShardSet(paths, metas);
  const offsets = rangeOffsets(metas);
  const rows = (await Promise.all(paths.map(rowsOf)))
    .flat()
    .map((r) => ({ ...r, position: globalPosition(Number(r.position), offsets) }));
  rows.sort((a, b) => (a.position as number) - (b.position as number));
  return { rows, metas };
}

describe.each(['several JSON Lines files', 'one big JSON Lines file', 'one Parquet file of 15 row groups'])(
  'sign --shard over %s',
  (name) => {
    let whole: Row[];
    let bytes: number;

    beforeAll(async () => {
      const inputs = corpora[name];
      bytes = inputs.reduce((sum, p) => sum + statSync(p).size, 0);
      const out = join(dir, `${name}-1of1.parquet`);
      await runSignShard(config(inputs, 0, 1, out));
      whole = (await union([out])).rows;
      // The readers' own order: position i is the i-th document.
      const ids: string[] = [];
      for await (const doc of readDocuments(await listInputFiles(inputs))) ids.push(doc.id);
      expect(whole.map((r) => r.id)).toEqual(ids);
      expect(whole.map((r) => r.position)).toEqual(ids.map((_, i) => i));
    }, 120_000);

    it.each([2, 4])(
      '%i shards read the corpus about once and hold exactly its documents',
      async (count) => {
        const inputs = corpora[name];
        const paths = Array.from({ length: count }, (_, i) => join(dir, `${name}-${i + 1}of${count}.parquet`));
        const summaries = [];
        for (let i = 0; i < count; i++) summaries.push(await runSignShard(config(inputs, i, count, paths[i])));
        const read = summaries.reduce((sum, s) => sum + s.bytesRead, 0);
        expect(read).toBeGreaterThanOrEqual(bytes * 0.99);
        expect(read).toBeLessThanOrEqual(bytes * 1.1);
        const { rows, metas } = await union(paths);
        expect(rows).toEqual(whole);
        expect(metas.map((m) => m.bytesRead)).toEqual(summaries.map((s) => s.bytesRead));
        // Balanced: no shard holds more than twice its share of documents (the sample's texts are long, the rest short).
        for (const m of metas) expect(m.documents).toBeGreaterThan(0);
        for (const m of metas) expect(m.ranges?.pieces.reduce((sum, p) => sum + p.documents, 0)).toBe(m.documents);
      },
      120_000,
    );
  },
);

describe('sign --shard: checks', () => {
  it('refuses shards of different plans (another shard count, or other files)', async () => {
    const inputs = corpora['one big JSON Lines file'];
    const a = join(dir, 'plan-a.parquet');
    const b = join(dir, 'plan-b.parquet');
    await runSignShard(config(inputs, 0, 2, a));
    await runSignShard(config([...corpora['several JSON Lines files']], 1, 2, b));
    const metas = [await readShardMeta(a), await readShardMeta(b)];
    expect(() => checkShardSet([a, b], metas)).toThrow(/input plan/);
  }, 120_000);

  it('reads a big file without ids whole (line numbers name its documents), and refuses an id-less document mid-file', async () => {
    const rs = records();
    const noIds = join(dir, 'no-ids.jsonl');
    writeFileSync(noIds, rs.map((r) => JSON.stringify({ text: r.text })).join('\n') + '\n');
    const notes: string[] = [];
    const hooks = {
      note: (m: string) => notes.push(m),
      stage: () => ({ update: () => undefined, stop: () => undefined }),
    };
    const paths = [0, 1].map((i) => join(dir, `no-ids-${i}.parquet`));
    for (let i = 0; i < 2; i++) await runSignShard(config([noIds], i, 2, paths[i]), hooks);
    expect(notes.join('\n')).toMatch(/no-ids\.jsonl: read whole by one shard \(no "id" in its first record/);
    const { rows } = await union(paths);
    expect(rows.map((r) => r.id)).toEqual(rs.map((_, i) => String(i + 1)));

    const mixed = join(dir, 'mixed.jsonl');
    writeFileSync(
      mixed,
      rs.map((r, i) => JSON.stringify(i === rs.length - 3 ? { text: r.text } : r)).join('\n') + '\n',
    );
    await expect(runSignShard(config([mixed], 1, 2, join(dir, 'mixed-2.parquet')))).rejects.toThrow(
      /mixed\.jsonl: line \d+ from byte \d+: no "id": a shard reading from mid-file/,
    );
  }, 120_000);
});

describe('sign --shard: a mid-file piece', () => {
  it('keeps a document whose real id equals its line number counted from the piece (issue 38)', async () => {
    const big = corpora['one big JSON Lines file'][0];
    const probe = join(dir, 'line-id-probe.parquet');
    await runSignShard(config([big], 1, 2, probe));
    const part = (await readShardMeta(probe)).ranges!.pieces[0].part;
    const pieceStart = Number(/^bytes (\d+)-/.exec(part)![1]);
    expect(pieceStart).toBeGreaterThan(0);
    // The piece's 5th line gets the id "5", padded with JSON whitespace: the same bytes, so the same plan.
    const bytes = readFileSync(big);
    const starts = [0];
    for (let i = 0; i < bytes.length - 1; i++) if (bytes[i] === 0x0a) starts.push(i + 1);
    const line = starts.findIndex((s) => s >= pieceStart) + 4;
    const text = bytes.toString('utf8').split('\n');
    const record = JSON.parse(text[line]) as { id: string; text: string };
    const head = `{"id":"5",`;
    const original = `{"id":${JSON.stringify(record.id)},`;
    expect(text[line].startsWith(original)).toBe(true);
    text[line] = head + ' '.repeat(original.length - head.length) + text[line].slice(original.length);
    const renamed = join(dir, 'line-id.jsonl');
    writeFileSync(renamed, text.join('\n'));
    expect(statSync(renamed).size).toBe(bytes.length);
    const out = join(dir, 'line-id-2.parquet');
    await runSignShard(config([renamed], 1, 2, out));
    const ids = (await rowsOf(out)).map((r) => r.id);
    expect(ids[4]).toBe('5');
    expect(ids).toHaveLength((await rowsOf(probe)).length);
  }, 120_000);
});
