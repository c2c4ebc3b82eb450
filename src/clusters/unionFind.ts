/** Disjoint sets over 0..n−1: union by size, full path compression; two int32 per element. */
export class UnionFind {
  private readonly parent: Int32Array;
  private readonly setSize: Int32Array;

  constructor(readonly count: number) {
    this.parent = new Int32Array(count);
    this.setSize = new Int32Array(count).fill(1);
    for (let i = 0; i < count; i++) this.parent[i] = i;
  }

  find(x: number): number {
    const parent = this.parent;
    let root = x;
    while (parent[root] !== root) root = parent[root];
    // Second pass: point every node on the path straight at the root.
    while (parent[x] !== root) {
      const up = parent[x];
      parent[x] = root;
      x = up;
    }
    return root;
  }

  /** Joins the sets of a and b; returns false when they were already one set. */
  union(a: number, b: number): boolean {
    let ra = this.find(a);
    let rb = this.find(b);
    if (ra === rb) return false;
    if (this.setSize[ra] < this.setSize[rb]) [ra, rb] = [rb, ra];
    this.parent[rb] = ra;
    this.setSize[ra] += this.setSize[rb];
    return true;
  }

  connected(a: number, b: number): boolean {
    return this.find(a) === this.find(b);
  }

  sizeOf(x: number): number {
    return this.setSize[this.find(x)];
  }
}
