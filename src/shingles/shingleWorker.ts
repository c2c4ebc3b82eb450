/** Worker thread of ShinglePool: shingles the texts it is sent, in order. */
import { parentPort } from 'node:worker_threads';
import { shingleDocument, type ShingleOptions } from './shingles.js';

export interface ShingleWorkerRequest {
  readonly id: number;
  readonly texts: readonly string[];
  readonly options: ShingleOptions;
}

export interface ShingleWorkerResponse {
  readonly id: number;
  /** All sets back to back as (lo, hi) pairs, and texts.length + 1 offsets in pairs. */
  readonly shingles?: Uint32Array;
  readonly offsets?: Uint32Array;
  readonly error?: string;
}

parentPort?.on('message', (request: ShingleWorkerRequest) => {
  try {
    const sets = request.texts.map((text) => shingleDocument(text, request.options));
    const offsets = new Uint32Array(sets.length + 1);
    sets.forEach((set, i) => (offsets[i + 1] = offsets[i] + set.length / 2));
    const shingles = new Uint32Array(2 * offsets[sets.length]);
    sets.forEach((set, i) => shingles.set(set, 2 * offsets[i]));
    const response: ShingleWorkerResponse = { id: request.id, shingles, offsets };
    parentPort!.postMessage(response, [shingles.buffer as ArrayBuffer, offsets.buffer as ArrayBuffer]);
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: String(error) } satisfies ShingleWorkerResponse);
  }
});
