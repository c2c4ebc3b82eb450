/**
 * `sign --shard` through the built CLI on the uncompressed sample, which the
 * shards split by byte ranges: `cluster` (DuckDB) on 2 and on 4 such shards
 * with defaults (hybrid verification, the representative check) equals
 * `dedup` with defaults byte for byte, and
 * `--clusters-from` applies its table in one pass (Spark reads shards as
 * DuckDB does: test/engines/clusterSpark.test.ts); each shard says how much of
 * the input it read. Standard input cannot be split: every shard streams it
 * and keeps every N-th document, and those shards join to the same clusters.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readShardMeta } from '../../src/formats/shards/shardSet.js';
import { runCli, tempDir } from '../support/cli.js';

const dir = tempDir();
const corpus = join(dir, 'sample.jsonl');
const sigs = join(dir, 'sigs.npy');
let want: { clusters: string; kept: string };

async function cli(args: string[], stdin?: string): Promise<string> {
  const result = await runCli(args, stdin);
  if (result.code !== 0) throw new Error(`gpudedup ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return result.stdout + result.stderr;
}

const signArgs = ['--backend', 'cpu', '--threads', '1'];

beforeAll(async () => {
  execFileSync('bash', ['-c', `gzip -dc data/sample.jsonl.gz > ${corpus}`]);
  await cli(['sign', corpus, '-o', sigs, ...signArgs, '-q']);
  const clusters = join(dir, 'dedup.csv');
  const kept = join(dir, 'dedup.jsonl');
  await cli(['dedup', corpus, '--signatures', sigs, '--clusters', clusters, '-o', kept, '-q']);
  want = { clusters: readFileSync(clusters, 'utf8'), kept: readFileSync(kept, 'utf8') };
}, 240_000);

describe('sign --shard on a file split by byte ranges', () => {
  it.each([2, 4])(
    "%i shards read it once and cluster to dedup's clusters",
    async (count) => {
      const shards = Array.from({ length: count }, (_, i) => join(dir, `shard-${i + 1}-of-${count}.parquet`));
      const outputs = await Promise.all(
        shards.map((out, i) => cli(['sign', corpus, '--shard', `${i + 1}/${count}`, '-o', out, ...signArgs])),
      );
      for (const out of outputs) expect(out).toMatch(/read\s+[\d,]+ bytes of the input's [\d,]+ \((\d+\.\d) %\)/);
      const metas = await Promise.all(shards.map(readShardMeta));
      const size = metas[0].ranges!.inputBytes;
      expect(metas.reduce((sum, m) => sum + m.bytesRead!, 0)).toBeLessThanOrEqual(size * 1.1);
      expect(metas.every((m) => m.ranges!.pieces.length === 1 && m.ranges!.pieces[0].part.startsWith('bytes '))).toBe(
        true,
      );

      const clusters = join(dir, `cluster-${count}.csv`);
      await cli(['cluster', ...shards, '--clusters', clusters, '-q']);
      expect(readFileSync(clusters, 'utf8')).toBe(want.clusters);
      const kept = join(dir, `kept-${count}.jsonl`);
      await cli(['dedup', corpus, '--clusters-from', clusters, '-o', kept, '-q']);
      expect(readFileSync(kept, 'utf8')).toBe(want.kept);
    },
    600_000,
  );
});

describe('text ranges (shard format v3)', () => {
  it("a byte order mark, \\r\\n and lone \\r line ends and non-ASCII texts: still dedup's clusters", async () => {
    const lines = readFileSync(corpus, 'utf8').trim().split('\n');
    const ends = ['\n', '\r\n', '\n', '\r', '\n\n'];
    const odd = join(dir, 'odd.jsonl');
    writeFileSync(
      odd,
      '\ufeff' +
        lines
          .map((line, i) => {
            const doc = JSON.parse(line) as { text: string };
            return i % 11 === 0 ? JSON.stringify({ ...doc, text: `Ünïcödé ✓ 😀 ${doc.text}` }) : line;
          })
          .map((line, i) => line + ends[i % ends.length])
          .join(''),
    );
    const clusters = join(dir, 'odd-dedup.csv');
    await cli(['dedup', odd, '--clusters', clusters, '-o', join(dir, 'odd-kept.jsonl'), ...signArgs, '-q']);
    const shards = [1, 2, 3].map((i) => join(dir, `odd-${i}.parquet`));
    for (const [i, out] of shards.entries()) await cli(['sign', odd, '--shard', `${i + 1}/3`, '-o', out, ...signArgs]);
    const metas = await Promise.all(shards.map(readShardMeta));
    expect(metas.every((m) => m.texts !== undefined && !m.sets)).toBe(true);
    for (const options of [[], ['--verify', 'exact', '--chain-delta', '0']]) {
      const ours = join(dir, 'odd-cluster.csv');
      await cli(['cluster', ...shards, ...options, '--clusters', ours, '-q']);
      const want = options.length === 0 ? clusters : join(dir, 'odd-dedup-exact.csv');
      if (options.length > 0)
        await cli([
          'dedup',
          odd,
          ...options,
          '--bands',
          '16',
          '--rows',
          '6',
          '--clusters',
          want,
          '-o',
          join(dir, 'odd-kept2.jsonl'),
          ...signArgs,
          '-q',
        ]);
      expect(readFileSync(ours, 'utf8')).toBe(readFileSync(want, 'utf8'));
    }
  }, 600_000);
});

describe('sign - --shard (standard input)', () => {
  it('streams all of it on every shard, keeps every N-th document, and joins to the same clusters', async () => {
    const text = readFileSync(corpus, 'utf8');
    const shards = [1, 2].map((i) => join(dir, `stdin-${i}.parquet`));
    const outputs = [];
    for (const [i, out] of shards.entries())
      outputs.push(await cli(['sign', '-', '--shard', `${i + 1}/2`, '-o', out, ...signArgs], text));
    expect(outputs[0]).toMatch(/standard input cannot be split/);
    expect(outputs[0]).toMatch(/standard input cannot be read again: the shard stores shingle lists/);
    const metas = await Promise.all(shards.map(readShardMeta));
    expect(metas.map((m) => [m.sets, m.texts])).toEqual([
      [true, undefined],
      [true, undefined],
    ]);
    expect(metas.map((m) => m.ranges)).toEqual([undefined, undefined]);
    expect(metas.map((m) => m.bytesRead)).toEqual([Buffer.byteLength(text), Buffer.byteLength(text)]); // all of it, twice
    const clusters = join(dir, 'stdin.csv');
    await cli(['cluster', ...shards, '--clusters', clusters, '-q']);
    // Ids are line numbers on standard input as in the file: the same table.
    expect(readFileSync(clusters, 'utf8')).toBe(want.clusters);
  }, 240_000);

  it('refuses to join stdin shards with shards of files', async () => {
    const result = await runCli([
      'cluster',
      join(dir, 'stdin-1.parquet'),
      join(dir, 'shard-2-of-2.parquet'),
      '--clusters',
      join(dir, 'x.csv'),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/slicing: one read its own pieces, the other all of the input/);
  });
});
