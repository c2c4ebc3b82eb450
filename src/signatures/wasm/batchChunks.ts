/**
 * Moving a ShingleBatch through a kernel's linear memory a chunk of documents
 * at a time: the signing kernels and the OPH bin kernel lay chunks out alike.
 */
import type { ShingleBatch } from '../../shingles/shingleBatch.js';

/** A chunk's shingles, offsets and output rows stay below this in wasm memory (one huge document may exceed it). */
const CHUNK_BYTES = 32 << 20;

export const align16 = (n: number): number => Math.ceil(n / 16) * 16;

/**
 * Documents [from, to) of each chunk, in order: as many as fit in CHUNK_BYTES with `rowBytes` of output each, at least
 * one.
 */
export function* documentChunks(
  offsets: Uint32Array,
  docs: number,
  rowBytes: number,
): Generator<readonly [number, number]> {
  for (let from = 0; from < docs; ) {
    let to = from + 1;
    while (to < docs && (offsets[to + 1] - offsets[from]) * 8 + (to + 1 - from) * (rowBytes + 4) < CHUNK_BYTES) to++;
    yield [from, to];
    from = to;
  }
}

/** The byte size of chunk [from, to)'s shingles in wasm memory. */
export function chunkShingleBytes(batch: ShingleBatch, from: number, to: number): number {
  return (batch.offsets[to] - batch.offsets[from]) * 8;
}

/**
 * Writes chunk [from, to)'s shingles at byte `sh` and its offsets, counted from the chunk's first shingle, at byte
 * `off`.
 */
export function stageChunk(
  buffer: ArrayBuffer,
  batch: ShingleBatch,
  from: number,
  to: number,
  sh: number,
  off: number,
): void {
  const first = batch.offsets[from];
  const count = batch.offsets[to] - first;
  new Uint32Array(buffer, sh, 2 * count).set(batch.shingles.subarray(2 * first, 2 * (first + count)));
  const offsets = new Uint32Array(buffer, off, to - from + 1);
  for (let d = from; d <= to; d++) offsets[d - from] = batch.offsets[d] - first;
}
