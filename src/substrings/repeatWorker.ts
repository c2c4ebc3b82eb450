/** Worker thread of the search: runs the rounds it is sent on the corpus and marks it shares with the main thread. */
import { serveRequests, type PoolRequest, type PoolResponse } from '../workers/workerPool.js';
import type { CutMode } from '../options.js';
import type { RoundStats } from './repeatGroups.js';
import { runRound } from './searchRepeats.js';

export interface RoundRequest extends PoolRequest {
  /** Views of SharedArrayBuffers: nothing is copied. */
  readonly bytes: Uint8Array;
  readonly starts: Float64Array;
  readonly marks: Int32Array;
  readonly minLength: number;
  readonly cut: CutMode;
  readonly lo: number;
  readonly hi: number;
  /** Windows in the corpus: the round's tables are sized for its share. */
  readonly windows: number;
}

export interface RoundResponse extends PoolResponse {
  readonly stats?: RoundStats;
}

serveRequests<RoundRequest, RoundResponse>((request) => {
  const { bytes, starts, marks, minLength, cut, lo, hi, windows } = request;
  const stats = runRound({ bytes, starts }, { minLength, cut, memoryLimitBytes: 0 }, marks, lo, hi, windows);
  return { response: { stats }, transfer: [] };
});
