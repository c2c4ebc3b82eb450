/**
 * Worker thread of the exact pass on text ranges (textWorkers.ts): reads and shingles the ranges it is sent into
 * parts in shared memory, and decides pairs of the sets in the parts it is sent.
 */
import { serveRequests, type PoolRequest, type PoolResponse } from '../workers/workerPool.js';
import {
  decideSetPairs,
  shingleRanges,
  type PackedSets,
  type SetPairs,
  type SetRule,
  type TextRanges,
  type TextSource,
} from './textSets.js';

/** What a worker is asked: to shingle ranges, or to decide pairs of sets across parts. */
export type TextBody =
  | (TextRanges & { readonly type: 'shingle'; readonly source: TextSource; readonly spill?: string })
  | (SetPairs & { readonly type: 'decide'; readonly parts: readonly PackedSets[]; readonly rule: SetRule });

export type TextRequest = PoolRequest & TextBody;

export interface TextResponse extends PoolResponse {
  readonly sets?: readonly PackedSets[];
  readonly passed?: Uint8Array;
}

serveRequests<TextRequest, TextResponse>((request) => {
  if (request.type === 'decide') {
    const passed = decideSetPairs(request.parts, request, request.rule);
    return { response: { passed }, transfer: [passed.buffer as ArrayBuffer] };
  }
  const sets = shingleRanges(request.source, request, undefined, undefined, request.spill);
  return { response: { sets }, transfer: sets.map((part) => part.offsets.buffer as ArrayBuffer) };
});
