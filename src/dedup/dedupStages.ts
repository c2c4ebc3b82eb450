/**
 * The stages of the in-memory dedup core (dedupSigned runs them in order): banding, the rows and shingle sets
 * each later stage reads, decontamination and clustering.
 */
import { findCandidates, type Candidates } from '../bands/candidates.js';
import type { BandKeySource } from '../bands/bandKeySource.js';
import { findCandidatesOn, type BandWorkerPool } from '../bands/bandWorkers.js';
import type { PairList } from '../bands/pairSet.js';
import type { SignatureMatrix } from '../bands/signatureMatrix.js';
import {
  candidateDocuments,
  checkSetsLikelyNeeded,
  clusterVerified,
  clusterVerifiedOn,
  type ClusterVerifiedOptions,
  type VerifiedClustering,
} from '../clusters/nearDuplicates.js';
import { matchReferences, referenceCandidates } from '../verify/decontaminate.js';
import { estimateVerdict, pairRule } from '../verify/pairDecision.js';
import type { ExactPairs } from '../verify/exactWorkers.js';
import type { ShingleSetStore } from '../verify/shingleSetStore.js';
import type { VerifiedPairs } from '../verify/verification.js';
import type { Contamination, DedupSettings, HeldCorpus, ReferencePairs, SignedReference } from './dedupTypes.js';

/** The corpus groups in a candidate pair, of the corpus or with the reference set: the rows read after banding. */
export function rowsNeeded(count: number, candidates: Candidates, referenceCandidates?: Candidates): Uint8Array {
  const needed = candidateDocuments(count, candidates);
  if (referenceCandidates !== undefined)
    for (let i = 0; i < referenceCandidates.a.length; i++) needed[referenceCandidates.a[i]] = 1;
  return needed;
}

function clusterOptions(corpus: HeldCorpus, settings: DedupSettings, store?: ShingleSetStore): ClusterVerifiedOptions {
  return {
    verify: settings.verify,
    exactSimilarity: store?.corpus,
    known: store && ((a, b) => store.has(a) && store.has(b)),
    clusterCheck: settings.clusterCheck,
    compare: corpus.table.groupComparator(),
    threshold: settings.threshold,
    chainDelta: settings.chainDelta,
    maxRepresentatives: settings.maxRepresentatives,
    estimateError: settings.estimateError,
    measure: settings.measure,
  };
}

/**
 * The corpus groups whose shingle sets exact Jaccard will need: with exact
 * verification those of every candidate pair; with hybrid those of the pairs
 * inside the margin, corpus and reference, and those the representative check
 * will likely compare inside its own margin (checkSetsLikelyNeeded).
 */
export function setsNeeded(
  corpus: HeldCorpus,
  candidates: Candidates,
  settings: DedupSettings,
  referencePairs?: ReferencePairs,
): Uint8Array {
  const { signatures } = corpus;
  if (settings.verify === 'exact') return exactSetsNeeded(signatures.count, candidates, referencePairs);
  const needed = inMargin(signatures, candidates, settings);
  if (referencePairs !== undefined) {
    const inReferenceMargin = inMargin(referencePairs.combined, referencePairs.pairs, settings);
    for (let g = 0; g < signatures.count; g++) needed[g] |= inReferenceMargin[g];
  }
  checkSetsLikelyNeeded(
    signatures,
    notRejected(signatures, candidates, settings),
    clusterOptions(corpus, settings),
    needed,
  );
  return needed;
}

/** The settings verification reads (the threshold's, verify's and estimate-error's fields only). */
export function verifySettings(settings: DedupSettings) {
  const { verify, threshold, estimateError, measure } = settings;
  return { verify, threshold, estimateError, measure };
}

/** Hybrid: the documents of pairs inside the estimate's margin at the threshold. */
export function inMargin(signatures: SignatureMatrix, pairs: PairList, settings: DedupSettings): Uint8Array {
  const rule = pairRule('hybrid', settings.threshold, signatures, settings.estimateError, settings.measure);
  const needed = new Uint8Array(signatures.count);
  for (let i = 0; i < pairs.a.length; i++) {
    if (estimateVerdict(rule, signatures, pairs.a[i], pairs.b[i]) === 'exact')
      needed[pairs.a[i]] = needed[pairs.b[i]] = 1;
  }
  return needed;
}

/** Hybrid: the candidate pairs the estimate does not reject (accepted, or inside the margin). */
function notRejected(signatures: SignatureMatrix, candidates: PairList, settings: DedupSettings): PairList {
  const rule = pairRule('hybrid', settings.threshold, signatures, settings.estimateError, settings.measure);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < candidates.a.length; i++) {
    if (estimateVerdict(rule, signatures, candidates.a[i], candidates.b[i]) !== 'reject') {
      a.push(candidates.a[i]);
      b.push(candidates.b[i]);
    }
  }
  return { a: Uint32Array.from(a), b: Uint32Array.from(b) };
}

/**
 * Corpus × reference candidate pairs, corpus and reference banded together (combined numbering: reference j is count +
 * j).
 */
export function bandAgainstReference(
  corpusKeys: BandKeySource,
  reference: SignedReference,
  settings: DedupSettings,
): Candidates {
  return referenceCandidates(corpusKeys, reference.rows, { ...settings.lsh, ...settings });
}

/** Candidate pairs among the corpus groups flagged in `include` (all by default), on `workers` where given. */
export function bandCorpus(
  keys: BandKeySource,
  settings: DedupSettings,
  onBand?: (bands: number) => void,
  include?: Uint8Array,
  workers?: BandWorkerPool,
): Candidates | Promise<Candidates> {
  const options = { ...settings.lsh, maxBucketPairs: settings.maxBucketPairs, include, onBand };
  return workers === undefined ? findCandidates(keys, options) : findCandidatesOn(workers, keys, options);
}

/** The corpus groups whose shingle sets exact verification needs: those in a candidate pair. */
export function exactSetsNeeded(count: number, candidates: Candidates, referencePairs?: ReferencePairs): Uint8Array {
  const needed = candidateDocuments(count, candidates);
  if (referencePairs !== undefined)
    for (let i = 0; i < referencePairs.pairs.a.length; i++) needed[referencePairs.pairs.a[i]] = 1;
  return needed;
}

/** Each corpus group's best verified reference match; matched groups are flagged for removal. */
export function decontaminate(
  referencePairs: ReferencePairs,
  reference: SignedReference,
  corpusCount: number,
  settings: DedupSettings,
  store?: ShingleSetStore,
): Contamination {
  const matches = matchReferences(referencePairs.pairs, referencePairs.combined, corpusCount, {
    ...settings,
    exactSimilarity: store?.combined,
    known: store?.known,
  });
  const flags = new Uint8Array(corpusCount);
  let removedGroups = 0;
  for (let g = 0; g < corpusCount; g++) {
    if (matches.match[g] >= 0) {
      flags[g] = 1;
      removedGroups++;
    }
  }
  return { ...matches, referenceIds: reference.ids, flags, removedGroups };
}

/**
 * Union-find over the verified pairs, with the representative check measured the way the pairs were verified.
 * Hybrid: a check comparison inside the margin whose shingle sets are not loaded fails, and its groups are
 * flagged in `missing` (dedupSigned then loads them and clusters again).
 */
export function clusterGroups(
  corpus: HeldCorpus,
  verified: VerifiedPairs,
  settings: DedupSettings,
  store?: ShingleSetStore,
  missing?: Uint8Array,
): VerifiedClustering {
  const options = clusterOptions(corpus, settings, store);
  const known =
    store &&
    ((a: number, b: number): boolean => {
      if (store.has(a) && store.has(b)) return true;
      if (missing !== undefined) missing[a] = missing[b] = 1;
      return false;
    });
  return clusterVerified(corpus.signatures, verified, {
    ...options,
    known,
    missingSets: store !== undefined && store.overBudget > 0 && missing === undefined ? 'estimate' : 'reject',
  });
}

/** clusterGroups with the check's comparisons decided on workers that read the sets where they lie. */
export function clusterGroupsOn(
  corpus: HeldCorpus,
  verified: VerifiedPairs,
  settings: DedupSettings,
  store: ShingleSetStore,
  workers: ExactPairs,
  onProgress: (settled: number) => void,
): Promise<VerifiedClustering> {
  return clusterVerifiedOn(corpus.signatures, verified, clusterOptions(corpus, settings, store), workers, onProgress);
}
