// Chain safety: with the default representative check, no document is removed unless it reaches t − δ
// against the document kept in its place, and the check's work is bounded per member.
import { describe, expect, it } from 'vitest';
import { dedup } from '../../src/api.js';
import { clusterPairs } from '../../src/clusters/clustering.js';
import { exactJaccard } from '../../src/verify/verification.js';
import { shingleDocument } from '../../src/shingles/shingles.js';
import { rng } from '../support/reference.js';

/** A chain of documents, each with `step` more words replaced (well apart) than the one before. */
function chain(length: number, step: number, words = 200, seed = 5): string[] {
  const next = rng(seed);
  const word = (): string =>
    Array.from({ length: 6 }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(next() * 26)]).join('');
  const base = Array.from({ length: words }, word);
  const out = [base.join(' ')];
  let current = base;
  for (let i = 1; i < length; i++) {
    current = current.slice();
    // Positions 6 apart so each replacement breaks its own five 5-gram shingles.
    for (let j = 0; j < step; j++) current[6 * ((i - 1) * step + j) + 3] = word();
    out.push(current.join(' '));
  }
  return out;
}

const jaccard = (a: string, b: string): number => exactJaccard(shingleDocument(a), shingleDocument(b));

describe('chain safety by default', () => {
  // A~B~C~D at J ≈ 0.85 between neighbours; A and D at ≈ 0.63, below t − 0.1 = 0.7.
  const texts = chain(4, 3);

  it('the planted chain is a chain', () => {
    for (let i = 0; i + 1 < texts.length; i++) expect(jaccard(texts[i], texts[i + 1])).toBeGreaterThan(0.82);
    expect(jaccard(texts[0], texts[2])).toBeGreaterThanOrEqual(0.7);
    expect(jaccard(texts[0], texts[3])).toBeLessThan(0.66);
  });

  it('single linkage removes D in favour of A; the default keeps D', async () => {
    const chained = await dedup(texts, { backend: 'cpu', verify: 'exact', clusterCheck: 'none' });
    expect(Array.from(chained.assignment.kept)).toEqual([1, 0, 0, 0]);
    const safe = await dedup(texts, { backend: 'cpu' });
    expect(safe.assignment.kept[3]).toBe(1);
    for (let d = 0; d < texts.length; d++) {
      if (safe.assignment.kept[d] === 1) continue;
      const kept = texts.findIndex(
        (_, k) => safe.assignment.kept[k] === 1 && safe.assignment.cluster[k] === safe.assignment.cluster[d],
      );
      expect(jaccard(texts[d], texts[kept])).toBeGreaterThanOrEqual(0.7);
    }
    expect(safe.clustering.splitOff).toBeGreaterThan(0);
  });

  it('chainDelta 0 is the strict check: every removed document reaches t itself', async () => {
    const strict = await dedup(texts, { backend: 'cpu', verify: 'exact', chainDelta: 0 });
    expect(strict.clustering.checkThreshold).toBe(0.8);
    for (let d = 0; d < texts.length; d++) {
      const rep = strict.clustering.representative[d];
      if (rep !== d) expect(jaccard(texts[d], texts[rep])).toBeGreaterThanOrEqual(0.8);
    }
    // C is at ≈ 0.73 from A: kept by the strict check, removed (in favour of A) by the default δ = 0.1.
    expect(strict.clustering.representative[2]).not.toBe(0);
    const loose = await dedup(texts, { backend: 'cpu', verify: 'exact' });
    expect(loose.clustering.representative[2]).toBe(0);
  });
});

describe('bounded representative check', () => {
  // A path 0 – 1 – … – n−1 where only documents within 2 of each other pass: the old check was quadratic here.
  const n = 400;
  const path = {
    a: Uint32Array.from({ length: n - 1 }, (_, i) => i),
    b: Uint32Array.from({ length: n - 1 }, (_, i) => i + 1),
  };
  const passes = (rep: number, m: number): boolean => Math.abs(rep - m) <= 2;

  it('makes at most R comparisons per member, and every removed member passed against its representative', () => {
    for (const R of [1, 2, 8]) {
      let calls = 0;
      const result = clusterPairs(n, path, {
        check: 'representative',
        compare: (a, b) => a - b,
        passes: (r, m) => (calls++, passes(r, m)),
        maxRepresentatives: R,
      });
      expect(calls).toBe(result.comparisons);
      expect(calls).toBeLessThanOrEqual(R * n);
      for (let d = 0; d < n; d++) {
        const rep = result.representative[d];
        if (rep !== d) {
          expect(passes(rep, d)).toBe(true);
          expect(result.representative[rep]).toBe(rep); // representatives are kept
        }
      }
    }
  });

  it('splits failed members into connected pieces: a path falls into clusters of three, until the budget runs out', () => {
    const unbounded = clusterPairs(n, path, {
      check: 'representative',
      compare: (a, b) => a - b,
      passes,
      maxRepresentatives: Infinity,
    });
    // Piece [3j, …]: 3j keeps 3j+1 and 3j+2; the rest is one connected piece again, so the old check is quadratic.
    for (let d = 0; d < n; d++) expect(unbounded.representative[d]).toBe(d - (d % 3));
    expect(unbounded.comparisons).toBeGreaterThan((n * n) / 8);
    const bounded = clusterPairs(n, path, {
      check: 'representative',
      compare: (a, b) => a - b,
      passes,
      maxRepresentatives: 8,
    });
    // Members beyond 24 have failed against 8 representatives (0, 3, …, 21) and are kept alone.
    for (let d = 0; d < n; d++) expect(bounded.representative[d]).toBe(d < 24 ? d - (d % 3) : d);
    expect(bounded.exhausted).toBe(n - 25);
    expect(bounded.comparisons).toBeLessThanOrEqual(8 * n);
  });

  it('a member that failed R representatives is kept alone, never removed', () => {
    // A star: 0 is preferred and joined to everyone; nobody passes against it.
    const m = 20;
    const star = {
      a: Uint32Array.from({ length: m - 1 }, () => 0),
      b: Uint32Array.from({ length: m - 1 }, (_, i) => i + 1),
    };
    const result = clusterPairs(m, star, {
      check: 'representative',
      compare: (a, b) => a - b,
      passes: () => false,
      maxRepresentatives: 2,
    });
    for (let d = 0; d < m; d++) expect(result.representative[d]).toBe(d);
    expect(result.comparisons).toBe(m - 1); // after 0 rejects them all, the members are no longer connected
  });
});

describe('chain safety on planted chains', () => {
  // Six chains of eight documents, J ≈ 0.85 between neighbours and down to ≈ 0.3 between the ends.
  const texts = Array.from({ length: 6 }, (_, f) => chain(8, 3, 200, 100 + f)).flat();
  const jaccards = texts.map((t) => shingleDocument(t));
  const removedFar = (kept: Uint8Array, cluster: Uint32Array, floor: number): number => {
    let far = 0;
    for (let d = 0; d < texts.length; d++) {
      if (kept[d] === 1) continue;
      const k = texts.findIndex((_, e) => kept[e] === 1 && cluster[e] === cluster[d]);
      if (exactJaccard(jaccards[d], jaccards[k]) < floor) far++;
    }
    return far;
  };

  it('single linkage removes documents far below t − 0.1 from their kept one; the default check none', async () => {
    const chained = await dedup(texts, { backend: 'cpu', verify: 'exact', clusterCheck: 'none' });
    expect(removedFar(chained.assignment.kept, chained.assignment.cluster, 0.7)).toBeGreaterThan(12);
    for (const verify of ['hybrid', 'exact'] as const) {
      const safe = await dedup(texts, { backend: 'cpu', verify });
      expect(removedFar(safe.assignment.kept, safe.assignment.cluster, 0.7)).toBe(0);
      expect(safe.assignment.counts.removed).toBeGreaterThanOrEqual(6 * 4); // pieces of ≈ 3 per chain of 8
    }
  });
});
