/**
 * Forests and postings handed between threads (forestCache.ts): a cache that
 * adopts another's uses the very same memory — SharedArrayBuffers, which a
 * MessagePort shares rather than copies — for a segment of the same name
 * and row count, answers every prefix search and postings lookup as its own
 * build would, and builds its own for a segment that differs.
 */
import { describe, expect, it } from 'vitest';
import { ForestCache } from '../../src/lshIndex/forestCache.js';
import { resolveParameters } from '../../src/lshIndex/options.js';
import { sampledKeys } from '../../src/lshIndex/postings.js';
import { MemorySegment, rowWidthOf } from '../../src/lshIndex/segment.js';
import { posted } from './posted.js';

const parameters = resolveParameters({ k: 16 });

/** `rows` rows of few distinct words (long prefix ranges), each with a set of 1–40 shingles. */
function segmentOf(name: string, rows: number): MemorySegment {
  const segment = new MemorySegment(name, parameters, true);
  const row = new Uint32Array(rowWidthOf(parameters));
  let s = 11;
  const random = (): number => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0), s / 2 ** 32);
  for (let r = 0; r < rows; r++) {
    for (let w = 0; w < row.length; w++) row[w] = Math.floor(random() * 4);
    const set = Uint32Array.from({ length: 2 * (1 + (r % 40)) }, (_, i) => (i % 2 === 0 ? (r * 7 + i) % 97 : 3));
    segment.append(`d${r}`, 1, row, 0, new Uint32Array(4), 0, false, set);
  }
  return segment;
}

describe('ForestCache.share and adopt', () => {
  it('an adopting cache reads the sharing one’s memory and answers as its own build', async () => {
    const segment = segmentOf('seg-a', 300);
    const own = new ForestCache(parameters);
    const shared = own.share([segment], true);
    const arrived = await posted(shared);
    const adopting = new ForestCache(parameters);
    adopting.adopt(arrived);
    const [forest] = adopting.forestsOf([segment]);
    const [built] = new ForestCache(parameters).forestsOf([segment]);
    const ownForest = own.forestsOf([segment])[0];
    expect(forest.data.fingerprints.buffer).toBeInstanceOf(SharedArrayBuffer);
    // Shared, not copied: a write through one is read through the other.
    const before = ownForest.data.sorted[0];
    ownForest.data.sorted[0] = before + 1;
    expect(forest.data.sorted[0]).toBe(before + 1);
    ownForest.data.sorted[0] = before;
    for (const key of ['fingerprints', 'sizes', 'sorted', 'starts', 'largest', 'banded'] as const)
      expect(forest.data[key]).toEqual(built.data[key]);
    const query = built.data.fingerprints.slice(5 * built.slots, 6 * built.slots);
    for (let t = 0; t < built.shape.trees; t++)
      for (let part = 0; part < built.partitions; part++)
        for (let r = 1; r <= built.shape.depth; r++)
          expect(forest.range(t, part, query, r)).toEqual(built.range(t, part, query, r));
    const keys = sampledKeys(segment.readSet(7)!);
    expect(keys.length).toBeGreaterThan(0);
    expect(adopting.postingsOf(segment)?.hitsOf(keys, 1)).toEqual(own.postingsOf(segment)?.hitsOf(keys, 1));
    expect(adopting.postingsOf(segment)?.keys.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it('builds its own for a segment of another name or row count', () => {
    const sharing = new ForestCache(parameters);
    const shared = sharing.share([segmentOf('seg-a', 300)], false);
    expect(shared.postings).toEqual([]); // the postings only where asked, or built already
    sharing.postingsOf(segmentOf('seg-a', 300));
    expect(sharing.share([segmentOf('seg-a', 300)], false).postings.map(([name]) => name)).toEqual(['seg-a']);
    const adopting = new ForestCache(parameters);
    adopting.adopt(shared);
    const [grown, other] = adopting.forestsOf([segmentOf('seg-a', 301), segmentOf('seg-b', 300)]);
    expect(grown.data.fingerprints.buffer).not.toBe(shared.forests[0][1].fingerprints.buffer);
    expect(grown.data.banded).toBe(301);
    expect(other.data.fingerprints.buffer).not.toBe(shared.forests[0][1].fingerprints.buffer);
  });
});
