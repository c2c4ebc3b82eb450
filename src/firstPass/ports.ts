/**
 * The first pass's ports: what differs between Node and the tab. The core
 * (firstPass.ts, handler.ts, readUnit.ts) sees only these.
 *
 * - FirstPassSources: how a worker opens a file it was handed (a path through
 *   node:fs, a File through Blob methods), already decompressed; in Node also
 *   a byte range of a file, which the worker cuts into lines itself.
 * - FirstPassWorkers: where requests run — worker threads, Web Workers, or
 *   this thread (one thread: no worker at all). A unit's `finish` must go to
 *   the worker that read it: that worker holds its texts.
 */
import type { AsyncBuffer } from 'hyparquet';
import type { FirstPassRequest, FirstPassResponse, SourceHandle } from './protocol.js';

export interface FirstPassSources {
  /** The whole file, decompressed when it starts with a gzip or zstd magic. */
  readWhole(source: SourceHandle): Promise<Uint8Array>;
  /** A Parquet file for positioned reads. */
  openParquet(source: SourceHandle): Promise<AsyncBuffer & { close?(): Promise<void> }>;
  /**
   * Bytes [position, position + length) of an uncompressed file, fewer only at its end: JSON Lines read by range
   * (Node; the tab hands out no ranges, so it needs none).
   */
  readAt?(source: SourceHandle, position: number, length: number): Promise<Uint8Array>;
}

export interface FirstPassWorkers {
  /** How many workers requests may be spread over. */
  readonly size: number;
  request(worker: number, request: FirstPassRequest, transfer?: readonly ArrayBuffer[]): Promise<FirstPassResponse>;
  destroy(): void;
}

/** The handler a worker runs, also called directly by InlineWorkers. */
export type FirstPassHandler = (
  request: FirstPassRequest,
) => Promise<{ response: FirstPassResponse; transfer: ArrayBuffer[] }>;

/** One "worker": this thread. The same handler, no messages. */
export class InlineWorkers implements FirstPassWorkers {
  readonly size = 1;
  constructor(private readonly handle: FirstPassHandler) {}
  async request(_worker: number, request: FirstPassRequest): Promise<FirstPassResponse> {
    return (await this.handle(request)).response;
  }
  destroy(): void {}
}
