/**
 * `node dist/bench/shardReads.js DOCUMENTS [--dir DIR] [--shards N] [--read-only] [--no-parquet]`:
 * how much of the corpus `sign --shard I/N` runs read together. A corpus of DOCUMENTS
 * real-text documents (bench/scaleCorpus.ts) is laid out three ways — one
 * JSON Lines file, 8 JSON Lines files of the parts, one Parquet file (row
 * groups of 8,192 rows) — and each is signed as N shards (default 4), one
 * CLI process after another; the shards' metadata gives the bytes each read.
 * Prints, per layout: corpus bytes, total bytes read and their ratio, the
 * largest shard's share of the documents, and the signing time of all shards.
 * The shards' union is checked (documents = the corpus's).
 *
 * `--read-only` runs only the shards' reading (shardSource of
 * src/pipeline/sign/shardSources.ts, in this process: the plan, the pieces, every
 * document parsed, the bytes counted as `sign --shard` counts them) without
 * signing, for sizes where signing N shards here would take too long;
 * `--no-parquet` skips the Parquet layout (written in memory).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { readShardMeta } from '../src/formats/shards/shardSet.js';
import { DEFAULT_READ } from '../src/io/documents.js';
import { listInputFiles } from '../src/io/readDocuments.js';
import { shardSource } from '../src/pipeline/sign/shardSources.js';
import { writeScaleCorpus } from './scaleCorpus.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

async function gpudedup(args: readonly string[]): Promise<number> {
  const started = performance.now();
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (c) => resolve(c ?? 1));
  });
  if (code !== 0) throw new Error(`gpudedup ${args.join(' ')} failed (exit ${code})`);
  return (performance.now() - started) / 1000;
}

const args = process.argv.slice(2);
const documents = Number(args[0]);
const option = (name: string, fallback: string): string =>
  args.includes(name) ? args[args.indexOf(name) + 1] : fallback;
const dir = option('--dir', 'bench-shard-reads');
const shards = Number(option('--shards', '4'));
if (!Number.isSafeInteger(documents) || documents < 1) {
  console.error('usage: node dist/bench/shardReads.js DOCUMENTS [--dir DIR] [--shards N]');
  process.exit(2);
}
mkdirSync(join(dir, 'parts'), { recursive: true });

const one = join(dir, 'corpus.jsonl');
await writeScaleCorpus(one, 0, documents);
const parts = Array.from({ length: 8 }, (_, i) => join(dir, 'parts', `part-${i}.jsonl`));
for (const [i, part] of parts.entries())
  await writeScaleCorpus(part, Math.floor((i * documents) / 8), Math.floor(((i + 1) * documents) / 8));
const parquet = join(dir, 'corpus.parquet');
const withParquet = !args.includes('--no-parquet');
if (withParquet) {
  const records = readFileSync(one, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { id: string; text: string });
  const columnData = [
    { name: 'id', data: records.map((r) => String(r.id)), type: 'STRING' as const },
    { name: 'text', data: records.map((r) => r.text), type: 'STRING' as const },
  ];
  writeFileSync(parquet, Buffer.from(parquetWriteBuffer({ columnData, rowGroupSize: 8192 })));
}

/** Reading only: each shard's documents and bytes read, as sign --shard reads them. */
async function readShards(inputs: string[]): Promise<{ documents: number[]; bytesRead: number[]; seconds: number }> {
  const started = performance.now();
  const files = await listInputFiles(inputs);
  const documents: number[] = [];
  const bytesRead: number[] = [];
  const progress = { update: () => undefined, stop: () => undefined };
  for (let index = 0; index < shards; index++) {
    const source = await shardSource(files, { index, count: shards }, DEFAULT_READ, () => undefined);
    let n = 0;
    for await (const _ of source.documents(DEFAULT_READ, progress)) n++;
    documents.push(n);
    bytesRead.push(source.meta().bytesRead ?? 0);
  }
  return { documents, bytesRead, seconds: (performance.now() - started) / 1000 };
}

/** Signing: one CLI process per shard, the counts from the shards' metadata. */
async function signShards(inputs: string[]): Promise<{ documents: number[]; bytesRead: number[]; seconds: number }> {
  let seconds = 0;
  const paths = Array.from({ length: shards }, (_, i) => join(dir, `shard-${i + 1}.parquet`));
  for (const [i, out] of paths.entries())
    seconds += await gpudedup(['sign', ...inputs, '--shard', `${i + 1}/${shards}`, '-o', out, '-q']);
  const metas = await Promise.all(paths.map(readShardMeta));
  return { documents: metas.map((m) => m.documents), bytesRead: metas.map((m) => m.bytesRead ?? 0), seconds };
}

const layouts: [string, string[], number][] = [
  ['one JSON Lines file', [one], statSync(one).size],
  ['8 JSON Lines files', [join(dir, 'parts')], parts.reduce((sum, p) => sum + statSync(p).size, 0)],
  ...(withParquet
    ? [['one Parquet file (row groups of 8,192)', [parquet], statSync(parquet).size] as [string, string[], number]]
    : []),
];
const readOnly = args.includes('--read-only');
console.log(
  `${documents.toLocaleString('en-US')} documents, ${shards} shards${readOnly ? ', reading only' : ''}; load average before: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}\n`,
);
console.log(
  `| layout | corpus bytes | bytes read by all shards | read / corpus | largest shard (documents) | ${readOnly ? 'reading' : 'signing'}, all shards | load average after |`,
);
console.log('| --- | --: | --: | --: | --: | --: | --- |');
for (const [name, inputs, bytes] of layouts) {
  const run = readOnly ? await readShards(inputs) : await signShards(inputs);
  const read = run.bytesRead.reduce((a, b) => a + b, 0);
  const total = run.documents.reduce((a, b) => a + b, 0);
  if (total !== documents) throw new Error(`${name}: the shards hold ${total} documents, the corpus ${documents}`);
  const largest = Math.max(...run.documents) / documents;
  const int = (n: number): string => n.toLocaleString('en-US');
  console.log(
    `| ${name} | ${int(bytes)} | ${int(read)} | ${(read / bytes).toFixed(3)}× | ${(100 * largest).toFixed(1)} % | ${run.seconds.toFixed(1)} s | ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} |`,
  );
}
