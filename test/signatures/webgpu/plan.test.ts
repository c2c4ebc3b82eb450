// The batching plan without a GPU: chunks fit the limits, cover every shingle
// once, and combining per-segment minima gives the CPU's signatures.
import { describe, expect, it } from 'vitest';
import { signBatchOnCpu } from '../../../src/signatures/cpuSigner.js';
import { makeHashFamily } from '../../../src/signatures/hashFamily.js';
import { EMPTY_SLOT_WORD } from '../../../src/signatures/backend.js';
import {
  DEFAULT_CHUNK_SHINGLES,
  MAX_SEGMENT_CAP,
  MIN_SEGMENT_CAP,
  chunkCapacity,
  combineSegments,
  planChunks,
  segmentCapFor,
  workgroupGrid,
  type Chunk,
} from '../../../src/signatures/webgpu/plan.js';
import { rng } from '../../support/reference.js';
import { randomBatch, randomSizes } from './cases.js';

const LIMITS = {
  maxStorageBufferBindingSize: 128 << 20,
  maxBufferSize: 256 << 20,
  maxComputeWorkgroupsPerDimension: 65535,
};

/** Every invariant a plan must keep, checked against the offsets it was made from. */
function checkPlan(
  offsets: Uint32Array,
  chunks: Chunk[],
  capacity: { shingles: number; segments: number },
  cap: number,
): void {
  const docs = offsets.length - 1;
  let next = offsets[0];
  const covered = new Array<number>(docs).fill(0);
  for (const chunk of chunks) {
    expect(chunk.firstShingle).toBe(next);
    const segments = chunk.segmentDocs.length;
    expect(segments).toBeGreaterThan(0);
    expect(segments).toBeLessThanOrEqual(capacity.segments);
    expect(chunk.endShingle - chunk.firstShingle).toBeLessThanOrEqual(capacity.shingles);
    expect(chunk.segmentStarts.length).toBe(segments + 1);
    expect(chunk.segmentStarts[0]).toBe(0);
    expect(chunk.segmentStarts[segments]).toBe(chunk.endShingle - chunk.firstShingle);
    for (let s = 0; s < segments; s++) {
      const d = chunk.segmentDocs[s];
      const from = chunk.firstShingle + chunk.segmentStarts[s];
      const to = chunk.firstShingle + chunk.segmentStarts[s + 1];
      expect(to - from).toBeGreaterThan(0);
      expect(to - from).toBeLessThanOrEqual(cap);
      expect(from).toBeGreaterThanOrEqual(offsets[d]);
      expect(to).toBeLessThanOrEqual(offsets[d + 1]);
      covered[d] += to - from;
    }
    next = chunk.endShingle;
  }
  expect(next).toBe(offsets[docs]);
  for (let d = 0; d < docs; d++) expect(covered[d]).toBe(offsets[d + 1] - offsets[d]);
}

describe('chunkCapacity', () => {
  it('takes chunks from the binding limits, the output rows and the dispatch size', () => {
    expect(chunkCapacity(LIMITS, 128, 64)).toEqual({
      shingles: DEFAULT_CHUNK_SHINGLES,
      segments: (128 << 20) / (8 * 128),
    });
    expect(chunkCapacity(LIMITS, 1, 64, Infinity)).toEqual({ shingles: (128 << 20) / 8, segments: (128 << 20) / 8 });
    // The smaller of maxBufferSize and the binding size wins.
    expect(chunkCapacity({ ...LIMITS, maxBufferSize: 1 << 20 }, 1, 64, Infinity).shingles).toBe((1 << 20) / 8);
    // Few workgroups per dimension bound the (segment, slot) invocations.
    expect(chunkCapacity({ ...LIMITS, maxComputeWorkgroupsPerDimension: 4 }, 8, 64).segments).toBe((16 * 64) / 8);
  });

  it('refuses a k whose one output row does not fit a binding', () => {
    expect(() => chunkCapacity({ ...LIMITS, maxStorageBufferBindingSize: 1024 }, 256, 64)).toThrow(RangeError);
  });
});

describe('segmentCapFor', () => {
  it('stays within its bounds and grows with the work of a chunk', () => {
    expect(segmentCapFor(10, 1)).toBe(MIN_SEGMENT_CAP);
    expect(segmentCapFor(1 << 20, 128)).toBe(512);
    expect(segmentCapFor(1 << 24, 1024)).toBe(MAX_SEGMENT_CAP);
  });
});

describe('planChunks', () => {
  it('gives empty documents no segment and an all-empty batch no chunk', () => {
    expect(planChunks(Uint32Array.of(0, 0, 0), { shingles: 10, segments: 10 }, 4)).toEqual([]);
    const chunks = planChunks(Uint32Array.of(0, 0, 3, 3, 5), { shingles: 100, segments: 100 }, 100);
    expect(chunks).toHaveLength(1);
    expect([...chunks[0].segmentDocs]).toEqual([1, 3]);
    expect([...chunks[0].segmentStarts]).toEqual([0, 3, 5]);
  });

  it('splits one document across segments and chunks', () => {
    const offsets = Uint32Array.of(0, 2, 25, 26);
    const capacity = { shingles: 10, segments: 100 };
    const chunks = planChunks(offsets, capacity, 4);
    checkPlan(offsets, chunks, capacity, 4);
    expect(chunks.map((c) => [c.firstShingle, c.endShingle])).toEqual([
      [0, 10],
      [10, 20],
      [20, 26],
    ]);
    expect([...chunks[0].segmentDocs]).toEqual([0, 1, 1]);
    expect([...chunks[0].segmentStarts]).toEqual([0, 2, 6, 10]);
  });

  it('closes a chunk when its segments are full', () => {
    const offsets = Uint32Array.of(0, 1, 2, 3, 4, 5);
    const chunks = planChunks(offsets, { shingles: 100, segments: 2 }, 8);
    expect(chunks.map((c) => [...c.segmentDocs])).toEqual([[0, 1], [2, 3], [4]]);
  });

  it('keeps its invariants on random batches, caps and capacities', () => {
    const next = rng(11);
    for (let round = 0; round < 200; round++) {
      const sizes = randomSizes(1 + Math.floor(next() * 30), 200, round);
      const offsets = new Uint32Array(sizes.length + 1);
      sizes.forEach((size, d) => (offsets[d + 1] = offsets[d] + size));
      const capacity = { shingles: 1 + Math.floor(next() * 300), segments: 1 + Math.floor(next() * 20) };
      const cap = 1 + Math.floor(next() * 100);
      checkPlan(offsets, planChunks(offsets, capacity, cap), capacity, cap);
    }
  });
});

describe('combineSegments', () => {
  it('gives the CPU signatures from per-segment minima, wherever the cuts fall', () => {
    for (const k of [1, 7, 32]) {
      const family = makeHashFamily(k, { hi: 0, lo: 5 });
      const batch = randomBatch([0, 1, 64, 300, 0, 17, 1000, 2], 40 + k);
      const expected = signBatchOnCpu(family, batch);
      for (const [capacity, cap] of [
        [{ shingles: 100, segments: 3 }, 16],
        [{ shingles: 5000, segments: 5000 }, 1000],
      ] as const) {
        const out = new Uint32Array(expected.length).fill(EMPTY_SLOT_WORD);
        for (const chunk of planChunks(batch.offsets, capacity, cap)) {
          // What the kernel computes for each segment, here on the CPU: each segment as a one-document batch.
          const local = batch.shingles.subarray(2 * chunk.firstShingle, 2 * chunk.endShingle);
          combineSegments(signBatchOnCpu(family, { shingles: local, offsets: chunk.segmentStarts }), chunk, k, out);
        }
        expect(out).toEqual(expected);
      }
    }
  });
});

describe('workgroupGrid', () => {
  it('folds past the per-dimension limit into 2D', () => {
    expect(workgroupGrid(64, 64, 65535)).toEqual({ x: 1, y: 1 });
    expect(workgroupGrid(65, 64, 65535)).toEqual({ x: 2, y: 1 });
    expect(workgroupGrid(65535 * 64, 64, 65535)).toEqual({ x: 65535, y: 1 });
    expect(workgroupGrid(65535 * 64 + 1, 64, 65535)).toEqual({ x: 65535, y: 2 });
    expect(() => workgroupGrid(17 * 4, 1, 4)).toThrow(RangeError);
  });
});
