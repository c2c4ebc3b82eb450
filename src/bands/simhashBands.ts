/**
 * SimHash's banding (`--scheme simhash --max-hamming h`): Manku, Jain and Das Sarma's permuted block tables, and what
 * a Hamming distance says about the angle (P[a bit differs] = θ / π).
 *
 * The 64 bits are cut into B = h + m disjoint blocks (as even as 64 / B allows). Two fingerprints within h bits
 * differ in at most h blocks, so they agree on at least m whole blocks (pigeonhole); one table for each choice of m
 * blocks, keyed by those blocks' bits, therefore finds every pair within h. With m = 1 these are h + 1 tables of
 * ⌊64 / (h + 1)⌋ bits; a larger m gives C(h + m, m) tables of ~64·m / (h + m) bits: more tables, but keys so much
 * wider that chance collisions (pairs far beyond h in one bucket) all but vanish. A table is a band whose slots are
 * its blocks' one-bit slots (LshParams.slots), padded to the widest table's width by repeating its last bit.
 */
import type { LshParams } from './lshParams.js';
import { SIMHASH_BITS } from '../signatures/simhash.js';

/**
 * Blocks a pair within h bits must agree on: m = 2 while C(h + 2, 2) stays at most 21 tables (h ≤ 5: keys of
 * 18–43 bits, where m = 1 gives 10–32), m = 1 beyond. Measured at h = 3 (bench/RESULTS.md): m = 2 cut 1 M
 * documents' candidates most for its cost; m = 3 (20 tables) and 4 (35) cut them little more and band longer.
 */
export function blocksAgreed(maxHamming: number): number {
  return maxHamming <= 5 ? 2 : 1;
}

/** The bit ranges of B blocks of 64 bits: the first 64 mod B blocks one bit wider. */
function blockRanges(blocks: number): [number, number][] {
  const narrow = Math.floor(SIMHASH_BITS / blocks);
  const wide = SIMHASH_BITS % blocks;
  const ranges: [number, number][] = [];
  let start = 0;
  for (let i = 0; i < blocks; i++) {
    const end = start + narrow + (i < wide ? 1 : 0);
    ranges.push([start, end]);
    start = end;
  }
  return ranges;
}

/** Every m-subset of 0 … n − 1, in lexicographic order. */
function subsets(n: number, m: number): number[][] {
  if (m === 0) return [[]];
  const out: number[][] = [];
  for (let first = 0; first <= n - m; first++)
    for (const rest of subsets(n - first - 1, m - 1)) out.push([first, ...rest.map((r) => r + first + 1)]);
  return out;
}

/**
 * The tables for Hamming ≤ h when a pair must agree on m blocks: C(h + m, m) bands, each reading its blocks' bits
 * (ascending), padded to the widest by repeating its last bit.
 */
export function blockTables(maxHamming: number, agreed: number): LshParams {
  const ranges = blockRanges(maxHamming + agreed);
  const tables = subsets(ranges.length, agreed).map((chosen) =>
    chosen.flatMap((b) => Array.from({ length: ranges[b][1] - ranges[b][0] }, (_, i) => ranges[b][0] + i)),
  );
  const rows = Math.max(...tables.map((t) => t.length));
  const slots = tables.flatMap((t) => [...t, ...Array<number>(rows - t.length).fill(t[t.length - 1])]);
  return { bands: tables.length, rows, slots };
}

const banded = new Map<number, LshParams>();

/** The block tables of Hamming ≤ h (computed once per h). */
export function simhashBands(maxHamming: number): LshParams {
  let lsh = banded.get(maxHamming);
  if (lsh === undefined) banded.set(maxHamming, (lsh = blockTables(maxHamming, blocksAgreed(maxHamming))));
  return lsh;
}

/** The h whose block tables are `lsh` (bands and rows as a shard or manifest records them); undefined if none. */
export function maxHammingOfBands(lsh: Pick<LshParams, 'bands' | 'rows'>): number | undefined {
  for (let h = 1; h < SIMHASH_BITS / 2; h++) {
    const tables = simhashBands(h);
    if (tables.bands === lsh.bands && tables.rows === lsh.rows) return h;
  }
  return undefined;
}

/** The decision threshold of Hamming ≤ h: the fraction of equal bits 1 − h / 64. */
export function simhashThreshold(maxHamming: number): number {
  return (SIMHASH_BITS - maxHamming) / SIMHASH_BITS;
}

/** The banding and threshold of a SimHash run at Hamming ≤ h (dedup, the library, the tab, the index). */
export function simhashBanding(maxHamming: number): { readonly threshold: number; readonly lsh: LshParams } {
  return { threshold: simhashThreshold(maxHamming), lsh: simhashBands(maxHamming) };
}

/** `gpudedup params --max-hamming h`: the block tables, and what a Hamming distance says about the cosine. */
export function simhashParams(maxHamming: number) {
  const agreed = blocksAgreed(maxHamming);
  const blocks = blockRanges(maxHamming + agreed)
    .map(([from, to]) => to - from)
    .sort((a, b) => a - b);
  const narrowestTable = (list: number[]): number => list.slice(0, agreed).reduce((sum, w) => sum + w, 0);
  const { bands, rows } = simhashBands(maxHamming);
  const distances = [...new Set([0, 1, 2, 3, 4, 6, 8, 12, 16, maxHamming])].sort((a, b) => a - b);
  return {
    scheme: 'simhash',
    bits: SIMHASH_BITS,
    maxHamming,
    blocks: blocks.length,
    bitsPerBlock: { least: Math.min(...blocks), most: Math.max(...blocks) },
    blocksPerTable: agreed,
    tables: bands,
    bitsPerTable: { least: narrowestTable(blocks), most: rows },
    cosineAtMaxHamming: Math.cos((Math.PI * maxHamming) / SIMHASH_BITS),
    // P[a bit differs] = θ / π, so d of 64 bits estimates θ = π·d / 64.
    distances: distances.map((d) => ({
      hamming: d,
      angle: (Math.PI * d) / SIMHASH_BITS,
      cosine: Math.cos((Math.PI * d) / SIMHASH_BITS),
    })),
  };
}
