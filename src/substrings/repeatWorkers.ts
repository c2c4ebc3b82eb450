/**
 * The search on Node's worker threads: the corpus and the marks in
 * SharedArrayBuffers, one round per worker at a time (searchRepeats.ts), each
 * worker marking its own shared array.
 */
import { availableParallelism } from 'node:os';
import { WorkerPool } from '../workers/workerPool.js';
import { workerScript } from '../workers/workerScript.js';
import { windowCount, type CorpusText } from './corpusText.js';
import type { RoundRequest, RoundResponse } from './repeatWorker.js';
import { laneMarks, searchRepeats, type SearchOptions, type SearchPlan, type SearchStats } from './searchRepeats.js';
import type { SpanColumns } from './spans.js';

export async function searchRepeatsInWorkers(
  corpus: CorpusText,
  options: SearchOptions,
  threads: number = availableParallelism(),
  plan: SearchPlan = {},
): Promise<{ spans: SpanColumns; stats: SearchStats }> {
  if (!(corpus.bytes.buffer instanceof SharedArrayBuffer) || !(corpus.starts.buffer instanceof SharedArrayBuffer)) {
    throw new Error('searchRepeatsInWorkers needs the corpus in SharedArrayBuffers (CorpusTextBuilder.finish(true))');
  }
  const marks = laneMarks(corpus, threads, true);
  const windows = windowCount(corpus, options.minLength);
  const pool = new WorkerPool<RoundRequest, RoundResponse>(
    workerScript(import.meta.url, 'substrings/repeatWorker.js'),
    threads,
    'substrings',
  );
  try {
    const run = async (lo: number, hi: number, lane: number): Promise<NonNullable<RoundResponse['stats']>> => {
      const body = {
        bytes: corpus.bytes,
        starts: corpus.starts,
        marks: marks[lane],
        minLength: options.minLength,
        cut: options.cut,
        lo,
        hi,
        windows,
      };
      const response = await pool.request(lane, body);
      if (response.error !== undefined || response.stats === undefined)
        throw new Error(`substrings worker: ${response.error ?? 'no answer'}`);
      return response.stats;
    };
    return await searchRepeats(corpus, options, marks, run, threads, plan);
  } finally {
    pool.destroy();
  }
}
