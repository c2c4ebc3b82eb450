import { describe, expect, it } from 'vitest';
import { POSTINGS_CAP, sampledKeys, ShinglePostings } from '../../src/lshIndex/postings.js';
import type { IndexSegment } from '../../src/lshIndex/segment.js';

/** Shingles (lo, hi) that the postings sample, each as its own 2-word set. */
function sampledShingles(count: number): Uint32Array[] {
  const out: Uint32Array[] = [];
  for (let lo = 1; out.length < count; lo++) {
    const pair = Uint32Array.of(lo, 7);
    if (sampledKeys(pair).length === 1) out.push(pair);
  }
  return out;
}

const setOf = (...pairs: Uint32Array[]): Uint32Array => Uint32Array.from(pairs.flatMap((p) => [...p]));

/** A segment of the given stored sets (only what the postings read). */
const segmentOf = (sets: Uint32Array[]): IndexSegment => ({
  name: 'test',
  count: sets.length,
  hasSets: true,
  lookup: () => undefined,
  isRemoved: () => false,
  id: (row) => String(row),
  readRow: () => undefined,
  readSet: (row) => sets[row],
});

describe('the sampled postings (postings.ts)', () => {
  const [boiler, a, b, c] = sampledShingles(4);
  // Row 0 holds the boilerplate shingle and a, b; rows 1–5 the boilerplate alone; row 6 a alone; row 7 c.
  const sets = [setOf(boiler, a, b), ...Array.from({ length: 5 }, () => setOf(boiler)), setOf(a), setOf(c)];
  const query = sampledKeys(setOf(boiler, a, b));

  it('keeps every list up to the cap: a row needs its least hits', () => {
    const postings = new ShinglePostings(segmentOf(sets));
    expect(postings.cap).toBe(POSTINGS_CAP);
    expect(postings.common.length).toBe(0);
    expect(postings.hitsOf(query, 3)).toEqual({ rows: [0], hits: [3], skipped: 0 });
    expect(postings.rowsSharing(query, 1).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('drops the list of a shingle posted under more rows than the cap; a query skips it and needs one hit less', () => {
    const postings = new ShinglePostings(segmentOf(sets), 5);
    expect([...postings.common]).toEqual([...sampledKeys(boiler)]);
    expect(postings.keys.length).toBe(4); // a twice, b and c once: the boilerplate's 6 postings are gone
    // Row 0 has 2 of the 3 − 1 hits it still needs; the rows holding only the boilerplate are not read at all.
    expect(postings.hitsOf(query, 3)).toEqual({ rows: [0], hits: [2], skipped: 1 });
    expect(postings.rowsSharing(query, 1).sort((x, y) => x - y)).toEqual([0, 6]);
    // At the cap itself the list is kept.
    expect(new ShinglePostings(segmentOf(sets), 6).common.length).toBe(0);
  });
});
