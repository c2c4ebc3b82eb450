/** Exact Jaccard of every pair, by brute force: the truth the quality benchmarks measure against. */

/** Shingle sets ((lo, hi) pairs) as sorted dense ids, shared across the documents. */
export function denseSets(shingleSets: readonly Uint32Array[]): Int32Array[] {
  const ids = new Map<string, number>();
  return shingleSets.map((pairs) => {
    const out = new Int32Array(pairs.length / 2);
    for (let i = 0; i < out.length; i++) {
      const key = `${pairs[2 * i + 1]}:${pairs[2 * i]}`;
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = ids.size));
      out[i] = id;
    }
    return out.sort();
  });
}

/** |A ∩ B| / |A ∪ B| of two sorted id sets; 0 for two empty ones. */
export function jaccard(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  const union = a.length + b.length - common;
  return union === 0 ? 0 : common / union;
}
