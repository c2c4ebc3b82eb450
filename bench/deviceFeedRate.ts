/**
 * The host's feed rate for a GPU, for the device check (bench/deviceCheck.ts)
 * while `gpudedup bench --json` does not report one: MB/s of JSON Lines turned
 * into shingle buffers ready to upload, by the first pass exactly as `dedup
 * --backend webgpu` runs it (src/firstPass: units cut at line ends, workers
 * parse, key and shingle, the exact pre-pass in order on this thread, shingles
 * back for the signer), minus the signing. On one thread (the first file
 * only; the rate does not depend on the length) and on one worker per core
 * (every file).
 *
 *   node dist/bench/deviceFeedRate.js CORPUS...   → one JSON line
 */
import { availableParallelism } from 'node:os';
import { ExactPrePass } from '../src/exact/exactPrePass.js';
import { firstPass } from '../src/firstPass/firstPass.js';
import { DEFAULT_READ } from '../src/io/documents.js';
import { inputUnits } from '../src/firstPass/node/inputUnits.js';
import { listInputFiles, type InputFile } from '../src/io/readDocuments.js';
import { unitSetup } from '../src/pipeline/shared/corpusPass.js';
import { makeParams } from '../src/signatures/params.js';
import { nodeFirstPassWorkers } from '../src/firstPass/node/firstPassWorkers.js';

export interface FeedRate {
  readonly source: 'bench' | 'measured';
  readonly what: string;
  readonly threads: number;
  readonly perCoreMBps: number;
  readonly allCoresMBps: number;
  /** Input bytes and shingles of the all-cores run. */
  readonly bytes?: number;
  readonly shingles?: number;
}

const FIRST = { kind: 'first' } as const;

/** Seconds for the first pass over `files` on `threads` workers, shingles only; input bytes and shingles counted. */
async function feed(
  files: readonly InputFile[],
  threads: number,
): Promise<{ seconds: number; bytes: number; shingles: number }> {
  const params = makeParams({});
  const workers = nodeFirstPassWorkers(threads);
  let bytes = 0;
  let shingles = 0;
  try {
    const started = performance.now();
    const units = inputUnits(files, (n) => (bytes = n));
    for await (const unit of firstPass(units, {
      setup: unitSetup(params, DEFAULT_READ, FIRST),
      workers,
      finish: { sign: false },
      prePass: new ExactPrePass(params.normalize, FIRST),
    })) {
      shingles += unit.result.shingleCount;
    }
    return { seconds: (performance.now() - started) / 1000, bytes, shingles };
  } finally {
    workers.destroy();
  }
}

export async function measureFeedRate(inputs: readonly string[]): Promise<FeedRate> {
  const files = await listInputFiles(inputs);
  if (files.length === 0) throw new RangeError('feed rate: no input files');
  const threads = availableParallelism();
  await feed(files.slice(0, 1), Math.min(2, threads)); // warm-up: workers' wasm compiled, files in the page cache
  const one = await feed(files.slice(0, 1), 1);
  const all = await feed(files, threads);
  return {
    source: 'measured',
    what: 'the first pass of dedup --backend webgpu without its signing (bench/deviceFeedRate.ts): JSONL bytes to shingle buffers',
    threads,
    perCoreMBps: one.bytes / 1e6 / one.seconds,
    allCoresMBps: all.bytes / 1e6 / all.seconds,
    bytes: all.bytes,
    shingles: all.shingles,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const inputs = process.argv.slice(2);
  if (inputs.length === 0) {
    console.error('usage: node dist/bench/deviceFeedRate.js CORPUS...');
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify(await measureFeedRate(inputs))}\n`);
}
