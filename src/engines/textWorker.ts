/** Worker thread of the exact pass on text ranges (textWorkers.ts): reads and shingles the ranges it is sent. */
import { serveRequests, type PoolRequest, type PoolResponse } from '../workers/workerPool.js';
import { shingleRanges, type PackedSets, type TextRanges, type TextSource } from './textPairs.js';

export interface ShingleRequest extends PoolRequest, TextRanges {
  readonly source: TextSource;
}

export interface ShingleResponse extends PoolResponse {
  readonly sets?: PackedSets;
}

serveRequests<ShingleRequest, ShingleResponse>((request) => {
  const sets = shingleRanges(request.source, request);
  return { response: { sets }, transfer: [sets.words.buffer as ArrayBuffer, sets.offsets.buffer as ArrayBuffer] };
});
