/** Worker thread of ShinglePool: shingles the texts it is sent, in order. */
import { shingleDocument, type ShingleOptions } from './shingles.js';
import { pack } from './shingleBatch.js';
import { serveRequests, type PoolRequest, type PoolResponse } from '../workers/workerPool.js';

export interface ShingleWorkerRequest extends PoolRequest {
  readonly texts: readonly string[];
  readonly options: ShingleOptions;
}

export interface ShingleWorkerResponse extends PoolResponse {
  /** All sets back to back as (lo, hi) pairs, and texts.length + 1 offsets in pairs. */
  readonly shingles?: Uint32Array;
  readonly offsets?: Uint32Array;
}

serveRequests<ShingleWorkerRequest, ShingleWorkerResponse>((request) => {
  const { shingles, offsets } = pack(request.texts.map((text) => shingleDocument(text, request.options)));
  return { response: { shingles, offsets }, transfer: [shingles.buffer as ArrayBuffer, offsets.buffer as ArrayBuffer] };
});
