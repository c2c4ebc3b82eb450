import { describe, expect, it } from 'vitest';
import { UnionFind } from '../../src/clusters/unionFind.js';
import { rng } from '../support/reference.js';

describe('UnionFind', () => {
  it('agrees with naive relabelling on random unions', () => {
    const n = 500;
    const uf = new UnionFind(n);
    const label = Array.from({ length: n }, (_, i) => i);
    const next = rng(11);
    for (let step = 0; step < 400; step++) {
      const a = Math.floor(next() * n);
      const b = Math.floor(next() * n);
      const merged = uf.union(a, b);
      expect(merged).toBe(label[a] !== label[b]);
      const from = label[b];
      const to = label[a];
      for (let i = 0; i < n; i++) if (label[i] === from) label[i] = to;
      if (step % 50 === 0) {
        for (let i = 0; i < n; i += 7) {
          for (let j = 0; j < n; j += 13) expect(uf.connected(i, j)).toBe(label[i] === label[j]);
        }
      }
    }
    for (let i = 0; i < n; i++) expect(uf.sizeOf(i)).toBe(label.filter((l) => l === label[i]).length);
  });

  it('stays shallow on a long chain (path compression)', () => {
    const n = 200_000;
    const uf = new UnionFind(n);
    for (let i = 1; i < n; i++) uf.union(i - 1, i);
    expect(uf.sizeOf(0)).toBe(n);
    expect(uf.find(n - 1)).toBe(uf.find(0));
  });
});
