/**
 * The audit of a dedup run (`--audit N`): a seeded sample of what it decided,
 * measured by exact Jaccard, so a run reports its precision instead of
 * asserting it.
 *
 * - Pairs: up to N accepted (verified) pairs per bin of estimated similarity
 *   (signature agreement): [0, 0.5), [0.5, 0.6), …, [0.9, 1.0]. A sampled pair
 *   is correct when its exact Jaccard reaches the threshold t. The run's
 *   precision is the bins' precisions weighted by their sizes (stratified).
 * - Removed documents: up to N documents removed as near-duplicates (their
 *   text differs from the kept one's: exact duplicates are J = 1 by
 *   construction, reference matches are measured against the reference set),
 *   each measured against the kept document of its cluster. The share below
 *   t − δ is what the representative check promises to keep at 0.
 *
 * Every proportion comes with a 95 % Wilson score interval; the overall
 * precision's uses Kish's effective sample size 1 / Σ w_h²/n_h (w_h a bin's
 * share of the pairs, n_h its sample), which is the sample size itself when
 * the bins are sampled in proportion and a bin's own size when there is one.
 * Sampling is without replacement and deterministic: a Mersenne Twister
 * seeded from the seed, in the fixed order of bins, then removed documents.
 *
 * Pure: the caller supplies exact Jaccard between two exact groups.
 */
import type { PairList } from '../bands/pairSet.js';
import { auditGenerator, sampleRanks, wilsonInterval, type Interval } from './sampling.js';
import type { Assignment } from '../clusters/assignment.js';
import type { DocumentTable } from '../exact/documentTable.js';
import { exactJaccard } from '../verify/verification.js';

/** Lower edges of the similarity bins; the last bin is [0.9, 1.0], 1.0 included. */
export const AUDIT_BIN_EDGES: readonly number[] = [0, 0.5, 0.6, 0.7, 0.8, 0.9];

/** The bin of an estimated similarity. */
export function auditBin(similarity: number): number {
  let bin = 0;
  for (let h = 1; h < AUDIT_BIN_EDGES.length; h++) if (similarity >= AUDIT_BIN_EDGES[h]) bin = h;
  return bin;
}

export const binRange = (h: number): [number, number] => [
  AUDIT_BIN_EDGES[h],
  h + 1 < AUDIT_BIN_EDGES.length ? AUDIT_BIN_EDGES[h + 1] : 1,
];

export interface SampledPair {
  readonly bin: number;
  /** Exact groups. */
  readonly a: number;
  readonly b: number;
  readonly estimate: number;
}

export interface SampledRemoval {
  /** Documents, and their exact groups. */
  readonly removed: number;
  readonly kept: number;
  readonly removedGroup: number;
  readonly keptGroup: number;
}

export interface AuditSample {
  readonly perBin: number;
  /** Accepted pairs in each bin (the population), and the sample drawn from them, bin by bin. */
  readonly binPairs: readonly number[];
  readonly pairs: readonly SampledPair[];
  /** Documents removed as near-duplicates (the population), and the sample. */
  readonly removedPopulation: number;
  readonly removals: readonly SampledRemoval[];
}

export interface AuditInput {
  readonly verified: PairList & { readonly estimate: ArrayLike<number> };
  readonly assignment: Assignment;
  readonly table: DocumentTable;
  /** Groups matched by the reference set (removed for that reason, not as near-duplicates). */
  readonly contaminated?: Uint8Array;
}

/** Draws the sample: `perBin` pairs per bin, then `perBin` removed documents. */
export function drawAuditSample(input: AuditInput, perBin: number, seed: string | number): AuditSample {
  const gen = auditGenerator(seed);
  const { verified } = input;
  const bins = Uint8Array.from(verified.estimate, (similarity) => auditBin(similarity));
  const binPairs = AUDIT_BIN_EDGES.map(() => 0);
  for (const h of bins) binPairs[h]++;
  const pairs: SampledPair[] = [];
  for (let h = 0; h < AUDIT_BIN_EDGES.length; h++) {
    const ranks = new Set(sampleRanks(binPairs[h], perBin, gen));
    let rank = 0;
    for (let i = 0; i < bins.length; i++) {
      if (bins[i] !== h) continue;
      if (ranks.has(rank++)) pairs.push({ bin: h, a: verified.a[i], b: verified.b[i], estimate: verified.estimate[i] });
    }
  }
  const removable = nearDuplicateRemovals(input);
  const removals = sampleRanks(removable.docs.length, perBin, gen).map((r): SampledRemoval => {
    const removed = removable.docs[r];
    const kept = removable.keptOf[input.assignment.cluster[removed]];
    return { removed, kept, removedGroup: input.table.group(removed), keptGroup: input.table.group(kept) };
  });
  return { perBin, binPairs, pairs, removedPopulation: removable.docs.length, removals };
}

/**
 * Removed documents whose text differs from their cluster's kept one, in input order; and each cluster's kept document.
 */
function nearDuplicateRemovals({ assignment, table, contaminated }: AuditInput): {
  docs: number[];
  keptOf: Int32Array;
} {
  const { cluster, kept } = assignment;
  const keptOf = new Int32Array(assignment.counts.clusters).fill(-1);
  for (let d = 0; d < cluster.length; d++) if (kept[d] === 1) keptOf[cluster[d]] = d;
  const docs: number[] = [];
  for (let d = 0; d < cluster.length; d++) {
    const g = table.group(d);
    if (kept[d] === 1 || g < 0 || contaminated?.[g] === 1) continue;
    const k = keptOf[cluster[d]];
    if (k >= 0 && table.group(k) !== g) docs.push(d);
  }
  return { docs, keptOf };
}

/** Groups whose shingle sets measuring the sample needs. */
export function auditGroups(sample: AuditSample, groups: number): Uint8Array {
  const needed = new Uint8Array(groups);
  for (const p of sample.pairs) needed[p.a] = needed[p.b] = 1;
  for (const r of sample.removals) needed[r.removedGroup] = needed[r.keptGroup] = 1;
  return needed;
}

export interface Proportion extends Interval {
  /** Of `sampled`, how many met the condition; `share` = count / sampled (NaN when nothing was sampled). */
  readonly count: number;
  readonly sampled: number;
  readonly share: number;
}

export interface AuditBinResult {
  readonly from: number;
  readonly to: number;
  /** Accepted pairs in the bin. */
  readonly pairs: number;
  /** Sampled pairs with exact J ≥ t. */
  readonly precision: Proportion;
}

export interface AuditResult {
  readonly perBin: number;
  readonly seed: string;
  readonly threshold: number;
  /** t − δ: removed documents below it broke the representative check's promise. */
  readonly chainThreshold: number;
  readonly bins: readonly AuditBinResult[];
  /** The bins' precisions weighted by their sizes, with the interval at Kish's effective sample size. */
  readonly precision: {
    readonly share: number;
    readonly low: number;
    readonly high: number;
    readonly sampled: number;
    readonly pairs: number;
    readonly effectiveSample: number;
  };
  readonly removed: {
    readonly population: number;
    readonly belowChainThreshold: Proportion;
    readonly belowThreshold: Proportion;
  };
  /** Every sampled item with its exact Jaccard, for the audit file. */
  readonly pairs: readonly (SampledPair & { readonly exact: number })[];
  readonly removals: readonly (SampledRemoval & { readonly exact: number })[];
}

export function proportion(count: number, sampled: number): Proportion {
  return { count, sampled, share: sampled === 0 ? Number.NaN : count / sampled, ...wilsonInterval(count, sampled) };
}

/** Measures the sample: `exact(a, b)` is exact Jaccard between exact groups a and b. */
export function measureAudit(
  sample: AuditSample,
  exact: (a: number, b: number) => number,
  settings: { threshold: number; chainDelta: number; seed: string | number },
): AuditResult {
  const { threshold } = settings;
  const chainThreshold = threshold - settings.chainDelta;
  const pairs = sample.pairs.map((p) => ({ ...p, exact: exact(p.a, p.b) }));
  const removals = sample.removals.map((r) => ({ ...r, exact: exact(r.removedGroup, r.keptGroup) }));
  const bins: AuditBinResult[] = [];
  sample.binPairs.forEach((population, h) => {
    if (population === 0) return;
    const inBin = pairs.filter((p) => p.bin === h);
    const [from, to] = binRange(h);
    bins.push({
      from,
      to,
      pairs: population,
      precision: proportion(inBin.filter((p) => p.exact >= threshold).length, inBin.length),
    });
  });
  const below = (limit: number): Proportion =>
    proportion(removals.filter((r) => r.exact < limit).length, removals.length);
  return {
    perBin: sample.perBin,
    seed: String(settings.seed),
    threshold,
    chainThreshold,
    bins,
    precision: stratifiedPrecision(bins),
    removed: {
      population: sample.removedPopulation,
      belowChainThreshold: below(chainThreshold),
      belowThreshold: below(threshold),
    },
    pairs,
    removals,
  };
}

/** Σ w_h p_h, and its Wilson interval at n_eff = 1 / Σ w_h² / n_h. */
export function stratifiedPrecision(bins: readonly AuditBinResult[]) {
  const pairs = bins.reduce((s, b) => s + b.pairs, 0);
  const sampled = bins.reduce((s, b) => s + b.precision.sampled, 0);
  if (pairs === 0) return { share: Number.NaN, low: 0, high: 1, sampled: 0, pairs: 0, effectiveSample: 0 };
  let share = 0;
  let inverse = 0;
  for (const b of bins) {
    const w = b.pairs / pairs;
    share += w * b.precision.share;
    inverse += (w * w) / b.precision.sampled;
  }
  const effectiveSample = 1 / inverse;
  const { low, high } = wilsonInterval(share * effectiveSample, effectiveSample);
  return { share, low, high, sampled, pairs, effectiveSample };
}

/**
 * The shingle sets of the groups flagged in `needed` (any loader: memory, the first pass's spool, a pass over the
 * files).
 */
export type LoadAuditSets = (needed: Uint8Array) => Promise<readonly (Uint32Array | undefined)[]>;

export interface AuditSettings {
  /** Pairs per bin, and removed documents, sampled. */
  readonly perBin: number;
  readonly seed: string | number;
  readonly threshold: number;
  readonly chainDelta: number;
}

/** Draws the sample, loads just its shingle sets, and measures it. */
export async function auditDedup(
  input: AuditInput,
  settings: AuditSettings,
  load: LoadAuditSets,
): Promise<AuditResult> {
  const sample = drawAuditSample(input, settings.perBin, settings.seed);
  const sets = await load(auditGroups(sample, input.table.groups));
  const setOf = (g: number): Uint32Array => {
    const set = sets[g];
    if (set === undefined) throw new Error(`internal: the audit's shingle set of group ${g} was not loaded`);
    return set;
  };
  return measureAudit(sample, (a, b) => exactJaccard(setOf(a), setOf(b)), settings);
}
