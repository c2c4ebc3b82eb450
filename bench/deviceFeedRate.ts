/**
 * The host's feed rate for a GPU, for the device check (bench/deviceCheck.ts)
 * when `gpudedup bench --json` does not report one: MB/s of document text
 * turned into packed shingle buffers ready to upload, as signDocuments feeds a
 * signer (batches of 2,048 documents, shingled by a ShinglePool, then `pack`),
 * on one thread and on one worker per core. Reading and parsing the JSONL is
 * timed apart (it runs on the main thread before shingling).
 *
 *   node dist/bench/deviceFeedRate.js CORPUS... [--max-bytes N]   → one JSON line
 */
import { availableParallelism } from 'node:os';
import { DEFAULT_READ } from '../src/io/documents.js';
import { listInputFiles, readDocuments } from '../src/io/readDocuments.js';
import { pack } from '../src/shingles/shingleBatch.js';
import { ShinglePool } from '../src/shingles/shinglePool.js';
import { makeParams, shingleOptionsOf } from '../src/signatures/params.js';

export interface FeedRate {
  readonly source: 'bench' | 'measured';
  readonly what: string;
  readonly documents?: number;
  readonly bytes?: number;
  readonly threads: number;
  readonly perCoreMBps: number;
  readonly allCoresMBps: number;
  readonly readMBps?: number;
}

const BATCH = 2048;
const options = shingleOptionsOf(makeParams({}));

async function readTexts(inputs: readonly string[], maxBytes: number): Promise<{ texts: string[]; bytes: number; seconds: number }> {
  const started = performance.now();
  const texts: string[] = [];
  let bytes = 0;
  for await (const doc of readDocuments(await listInputFiles(inputs), DEFAULT_READ)) {
    texts.push(doc.text);
    bytes += Buffer.byteLength(doc.text);
    if (bytes >= maxBytes) break;
  }
  return { texts, bytes, seconds: (performance.now() - started) / 1000 };
}

/** Seconds to shingle and pack `texts` in pipeline-sized batches on `threads` threads (after a warm-up batch). */
async function feedSeconds(texts: readonly string[], threads: number): Promise<number> {
  const pool = new ShinglePool(threads);
  try {
    pack(await pool.shingleAll(texts.slice(0, BATCH), options));
    const started = performance.now();
    for (let from = 0; from < texts.length; from += BATCH) pack(await pool.shingleAll(texts.slice(from, from + BATCH), options));
    return (performance.now() - started) / 1000;
  } finally {
    pool.destroy();
  }
}

export async function measureFeedRate(inputs: readonly string[], maxBytes: number): Promise<FeedRate> {
  const { texts, bytes, seconds } = await readTexts(inputs, maxBytes);
  if (texts.length === 0) throw new RangeError('feed rate: the inputs hold no documents');
  const threads = availableParallelism();
  // One thread on a quarter of the slice: its rate does not depend on the length.
  const quarter = texts.slice(0, Math.max(1, texts.length >> 2));
  const quarterBytes = quarter.reduce((s, t) => s + Buffer.byteLength(t), 0);
  const one = await feedSeconds(quarter, 1);
  const all = await feedSeconds(texts, threads);
  return {
    source: 'measured',
    what: 'text → word 5-gram shingles → packed batch (ShinglePool, batches of 2,048 documents), as signDocuments feeds a signer; JSONL reading timed apart',
    documents: texts.length,
    bytes,
    threads,
    perCoreMBps: quarterBytes / 1e6 / one,
    allCoresMBps: bytes / 1e6 / all,
    readMBps: bytes / 1e6 / seconds,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--max-bytes');
  const maxBytes = at >= 0 ? Number(args.splice(at, 2)[1]) : 256e6;
  if (args.length === 0 || !(maxBytes > 0)) {
    console.error('usage: node dist/bench/deviceFeedRate.js CORPUS... [--max-bytes N]');
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify(await measureFeedRate(args, maxBytes))}\n`);
}
