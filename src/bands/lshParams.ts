/**
 * LSH parameters: the S-curve of banded MinHash and the choice of bands b and
 * rows r for a similarity threshold.
 *
 * Two documents of Jaccard similarity s agree on one MinHash slot with
 * probability s, on all r slots of a band with probability s^r, and so share a
 * bucket in at least one of b bands with probability P(s) = 1 − (1 − s^r)^b.
 *
 * The optimizer is datasketch's `_optimal_param`: over every (b, r) with
 * b·r ≤ k, minimize w_fp·∫₀ᵗ P(s) ds + w_fn·∫ₜ¹ (1 − P(s)) ds, i.e. the weighted
 * areas of false positives below the threshold and false negatives above it.
 * Ties keep the first (b, r) met with b outer and r inner, as datasketch does.
 */

import { defaultOf, OPTIONS } from '../options.js';

export interface LshParams {
  readonly bands: number;
  readonly rows: number;
  /**
   * SimHash's permuted block tables (simhashBands.ts): band j reads the one-bit slots slots[j·rows … (j + 1)·rows − 1]
   * instead of j·rows …, so bands may overlap and bands × rows may pass k. Absent: consecutive slots.
   */
  readonly slots?: readonly number[];
}

/** Whether two bandings key alike: the same bands, rows and slots. */
export function sameBanding(a: LshParams, b: LshParams): boolean {
  if (a.bands !== b.bands || a.rows !== b.rows || (a.slots === undefined) !== (b.slots === undefined)) return false;
  return a.slots === b.slots || a.slots!.every((slot, i) => slot === b.slots![i]);
}

export interface OptimizerWeights {
  readonly falsePositive: number;
  readonly falseNegative: number;
}

/** datasketch's weights, the optimizer's default as a library function. */
export const DEFAULT_WEIGHTS: OptimizerWeights = { falsePositive: 0.5, falseNegative: 0.5 };

/**
 * The weights `gpudedup dedup` and the browser app use: every candidate pair
 * is verified afterwards, so a banding false positive costs one comparison
 * while a false negative is a duplicate lost for good. With k = 128, t = 0.8
 * they give 14 × 9 instead of 9 × 13 (P = 0.98 instead of 0.69 at J = 0.85).
 */
export const DEDUP_WEIGHTS: OptimizerWeights = {
  falsePositive: defaultOf('fpWeight'),
  falseNegative: defaultOf('fnWeight'),
};

export interface OptimalParams extends LshParams {
  /** ∫₀ᵗ P(s) ds. */
  readonly falsePositiveArea: number;
  /** ∫ₜ¹ (1 − P(s)) ds. */
  readonly falseNegativeArea: number;
  /** The weighted sum that was minimized. */
  readonly error: number;
}

/** P(s) = 1 − (1 − s^r)^b: the probability that a pair of similarity s becomes a candidate. */
export function candidateProbability(s: number, bands: number, rows: number): number {
  // log1p/expm1 keep precision where s^r is tiny (P ≈ b·s^r) and where it is near 1.
  const sr = s ** rows;
  if (sr >= 1) return 1;
  return -Math.expm1(bands * Math.log1p(-sr));
}

/** The similarity where the S-curve is steepest, roughly: (1/b)^(1/r). */
export function approximateThreshold(bands: number, rows: number): number {
  return (1 / bands) ** (1 / rows);
}

// 8-point Gauss–Legendre nodes and weights on [−1, 1].
const GL_NODES = [
  -0.9602898564975363, -0.7966664774136267, -0.525532409916329, -0.1834346424956498, 0.1834346424956498,
  0.525532409916329, 0.7966664774136267, 0.9602898564975363,
];
const GL_WEIGHTS = [
  0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.362683783378362, 0.362683783378362, 0.3137066458778873,
  0.2223810344533745, 0.1012285362903763,
];
const PANELS = 64;

/** Composite 8-point Gauss–Legendre on 64 panels: exact for polynomials of degree < 16 per panel, ~1e-12 here. */
export function integrate(f: (x: number) => number, from: number, to: number): number {
  if (to <= from) return 0;
  const width = (to - from) / PANELS;
  let sum = 0;
  for (let p = 0; p < PANELS; p++) {
    const mid = from + (p + 0.5) * width;
    let panel = 0;
    for (let i = 0; i < GL_NODES.length; i++) panel += GL_WEIGHTS[i] * f(mid + 0.5 * width * GL_NODES[i]);
    sum += panel * 0.5 * width;
  }
  return sum;
}

export function falsePositiveArea(threshold: number, bands: number, rows: number): number {
  return integrate((s) => candidateProbability(s, bands, rows), 0, threshold);
}

export function falseNegativeArea(threshold: number, bands: number, rows: number): number {
  return integrate((s) => 1 - candidateProbability(s, bands, rows), threshold, 1);
}

/**
 * The candidate probability at the threshold that `gpudedup dedup` asks of the
 * banding when verification is exact or hybrid: every candidate is then
 * verified well, so the banding's misses at J = t are what is left to lose.
 * 0.999 (18 × 5 at t = 0.8, k = 128) rather than 0.99 (16 × 6): the pairs left
 * on real text sit just above t, and at 1 M it costs ~1–4 % of the run (issue 37).
 */
export const DEFAULT_RECALL_AT_THRESHOLD = 0.999;

/**
 * The default target for `k` hashes where verification computes exact Jaccard (`exactVerification`: hybrid, exact):
 * DEFAULT_RECALL_AT_THRESHOLD, or the most that k reaches (k bands of one row) where that is less, so that a default
 * never refuses a small k; 0 (no constraint) otherwise. A target given by the user is held as given.
 */
export function defaultRecallAtThreshold(threshold: number, k: number, exactVerification = true): number {
  return exactVerification ? Math.min(DEFAULT_RECALL_AT_THRESHOLD, candidateProbability(threshold, k, 1)) : 0;
}

/**
 * The (b, r) with b·r ≤ k that minimizes the weighted error among those whose
 * candidate probability at the threshold is at least `recallAtThreshold`
 * (0: no constraint, datasketch's choice). The constraint can always be met
 * for a target below 1 − (1 − t)^k (b = k, r = 1).
 */
export function optimalParams(
  threshold: number,
  k: number,
  weights: OptimizerWeights = DEFAULT_WEIGHTS,
  recallAtThreshold = 0,
): OptimalParams {
  checkThreshold(threshold);
  OPTIONS.recallAtThreshold.check(recallAtThreshold);
  OPTIONS.k.check(k);
  const { falsePositive: wfp, falseNegative: wfn } = weights;
  if (!(wfp >= 0 && wfn >= 0 && wfp + wfn > 0)) {
    throw new RangeError(`optimizer weights must be non-negative and not both zero, got fp=${wfp} fn=${wfn}`);
  }
  const key = `${threshold} ${k} ${wfp} ${wfn} ${recallAtThreshold}`;
  const known = chosen.get(key);
  if (known !== undefined) return { ...known };
  let best: OptimalParams | undefined;
  // The heavier-weighted area first: where it alone reaches the best error so far, the pair cannot win (the other
  // area is ≥ 0, and adding it cannot round the sum below), so the second integral is skipped. More rows lower P(s)
  // everywhere: the false-negative area and the miss at the threshold only grow along a row of the loop, so where
  // either already loses, the rest of the row is passed over. The choice is the same, ties included.
  const fpFirst = wfp >= wfn;
  for (let bands = 1; bands <= k; bands++) {
    for (let rows = 1; rows * bands <= k; rows++) {
      if (recallAtThreshold > 0 && candidateProbability(threshold, bands, rows) < recallAtThreshold) break;
      const first = fpFirst ? falsePositiveArea(threshold, bands, rows) : falseNegativeArea(threshold, bands, rows);
      if (best !== undefined && (fpFirst ? wfp : wfn) * first >= best.error) {
        if (fpFirst) continue;
        break;
      }
      const fp = fpFirst ? first : falsePositiveArea(threshold, bands, rows);
      const fn = fpFirst ? falseNegativeArea(threshold, bands, rows) : first;
      const error = wfp * fp + wfn * fn;
      if (best === undefined || error < best.error) {
        best = { bands, rows, falsePositiveArea: fp, falseNegativeArea: fn, error };
      }
    }
  }
  // A target above what k reaches (only a given one: the default is capped) lands here: say what k reaches.
  if (best === undefined)
    throw new RangeError(
      `no bands × rows within k = ${k} reach P = ${recallAtThreshold} at the threshold ${threshold} (the most is ` +
        `${candidateProbability(threshold, k, 1).toFixed(4)}, with ${k} bands of one row): lower the target ` +
        `(${OPTIONS.recallAtThreshold.flag}), give bands and rows, or raise k`,
    );
  chosen.set(key, best);
  return { ...best };
}

/** optimalParams's answers in this process (a dedup, the report and the library ask for the same ones). */
const chosen = new Map<string, OptimalParams>();

export function checkThreshold(threshold: number): void {
  OPTIONS.threshold.check(threshold);
}

/** Refuses bands/rows that are not positive integers or that need more than k slots. */
export function checkParams(params: LshParams, k: number): void {
  const { bands, rows, slots } = params;
  OPTIONS.bands.check(bands);
  OPTIONS.rows.check(rows);
  if (slots !== undefined) {
    if (slots.length !== bands * rows || !slots.every((s) => Number.isInteger(s) && s >= 0 && s < k))
      throw new RangeError(`block tables of ${bands} × ${rows} need ${bands * rows} slots below k = ${k}`);
    return;
  }
  if (bands * rows > k) {
    throw new RangeError(`bands × rows = ${bands} × ${rows} = ${bands * rows} exceeds the signature length k = ${k}`);
  }
}
