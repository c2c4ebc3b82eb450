/**
 * The host's feed rate for a GPU: input read, parsed, keyed by the exact
 * pre-pass and shingled into the buffers a device signer uploads — the first
 * pass with the workers returning shingles (src/firstPass), the device left
 * out — on one thread and on every core, in MB/s of UTF-8 text. A GPU signs far
 * faster than this, so this is what a workstation's cores can feed it.
 */
import { ExactPrePass } from '../clusters/exactPrePass.js';
import { firstPass } from '../firstPass/firstPass.js';
import { UniqueIds } from '../firstPass/uniqueIds.js';
import type { ReadOptions } from '../io/documents.js';
import { inputUnits } from '../io/inputUnits.js';
import type { InputFile } from '../io/readDocuments.js';
import type { SignatureParams } from '../signatures/params.js';
import { nodeFirstPassWorkers } from '../workers/firstPassWorkers.js';
import { unitSetup } from './corpusPass.js';

export interface FeedRate {
  readonly threads: number;
  readonly seconds: number;
  /** UTF-8 bytes of the texts turned into shingle buffers, per second. */
  readonly mbPerSecond: number;
  readonly mbPerSecondPerCore: number;
  readonly shingles: number;
}

/** The first pass to shingle buffers on `threads` workers (1: this thread alone), timed. */
export async function measureFeedRate(files: readonly InputFile[], params: SignatureParams, read: ReadOptions, threads: number): Promise<FeedRate> {
  const workers = nodeFirstPassWorkers(threads);
  const started = performance.now();
  let bytes = 0;
  let shingles = 0;
  try {
    const prePass = new ExactPrePass(params.normalize, { kind: 'first' });
    for await (const unit of firstPass(inputUnits(files), { setup: unitSetup(params, read, { kind: 'first' }), workers, finish: { sign: false }, prePass, ids: new UniqueIds() })) {
      bytes += unit.documents.textBytes;
      shingles += unit.result.shingleCount;
    }
  } finally {
    workers.destroy();
  }
  const seconds = (performance.now() - started) / 1000;
  const mbPerSecond = bytes / 1e6 / seconds;
  return { threads, seconds, mbPerSecond, mbPerSecondPerCore: mbPerSecond / threads, shingles };
}
