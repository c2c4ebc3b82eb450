/** The band tables' order: (lo, hi, row) triples by the 64-bit key hi·2³² + lo, equal keys in row order. */

/** Below this many entries a comparison sort is faster than four passes over 65,536 counters. */
const SMALL_SORT = 2048;

/** The same order as the radix sort (stable: Array.prototype.sort is), for a few entries. */
function sortSmall(lo: Uint32Array, hi: Uint32Array, rows: Uint32Array): void {
  const order = Array.from({ length: lo.length }, (_, i) => i).sort((a, b) => hi[a] - hi[b] || lo[a] - lo[b]);
  const [l, h, r] = [lo.slice(), hi.slice(), rows.slice()];
  order.forEach((from, to) => {
    lo[to] = l[from];
    hi[to] = h[from];
    rows[to] = r[from];
  });
}

/** Sorts (lo, hi, row) triples by the 64-bit key hi·2³² + lo: LSD radix, four 16-bit digits, stable. */
export function radixSortByKey(lo: Uint32Array, hi: Uint32Array, rows: Uint32Array): void {
  const n = lo.length;
  if (n < SMALL_SORT) {
    sortSmall(lo, hi, rows);
    return;
  }
  let [sLo, sHi, sRows]: Uint32Array[] = [lo, hi, rows];
  let [tLo, tHi, tRows]: Uint32Array[] = [new Uint32Array(n), new Uint32Array(n), new Uint32Array(n)];
  const counts = new Uint32Array(65_537);
  for (let pass = 0; pass < 4; pass++) {
    const source = pass < 2 ? sLo : sHi;
    const shift = (pass & 1) * 16;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[((source[i] >>> shift) & 0xffff) + 1]++;
    for (let d = 0; d < 65_536; d++) counts[d + 1] += counts[d];
    const key = pass < 2 ? sLo : sHi;
    for (let i = 0; i < n; i++) {
      const to = counts[(key[i] >>> shift) & 0xffff]++;
      tLo[to] = sLo[i];
      tHi[to] = sHi[i];
      tRows[to] = sRows[i];
    }
    [sLo, tLo] = [tLo, sLo];
    [sHi, tHi] = [tHi, sHi];
    [sRows, tRows] = [tRows, sRows];
  }
  // Four passes: the sorted triples are back in the caller's arrays.
}
