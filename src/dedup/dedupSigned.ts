/**
 * The in-memory core of dedup once the distinct texts are signed, shared by
 * `runDedup` (src/pipeline) and the browser app through `dedupDocuments`:
 *
 *   band the reference set → band the corpus → load shingle sets (exact
 *   and hybrid verification) → decontaminate → verify → cluster (with the
 *   representative check; hybrid may load the sets it lacks once more) →
 *   assign.
 *
 * Each stage is a named function of the previous stages' results, run through
 * a `StageRunner` that times it (and may show progress). Where exact
 * exact Jaccard gets its shingle sets is the caller's: from memory in the tab,
 * from one more pass over the files in Node.
 */
import { findCandidates, type CandidateStats, type Candidates } from '../bands/candidates.js';
import {
  checkParams,
  DEDUP_WEIGHTS,
  DEFAULT_RECALL_AT_THRESHOLD,
  optimalParams,
  type LshParams,
} from '../bands/lshParams.js';
import { checkTableOptions, type OptionValues, type VerificationOptions } from '../options.js';
import type { PairList } from '../bands/pairSet.js';
import type { BandKeySource } from '../bands/bandKeySource.js';
import { concatMatrices, type SignatureMatrix } from '../bands/signatureMatrix.js';
import { bandKeysOf, isSpilled, rowsFor } from '../bands/spilledSignatures.js';
import { assignClusters, type Assignment } from '../clusters/assignment.js';
import { matchReferences, referenceCandidates, type ReferenceMatches } from '../verify/decontaminate.js';
import type { DocumentTable } from '../exact/documentTable.js';
import {
  candidateDocuments,
  checkSetsLikelyNeeded,
  clusterVerified,
  type ClusterVerifiedOptions,
  type VerifiedClustering,
} from '../clusters/nearDuplicates.js';
import { estimateVerdict, pairRule } from '../verify/pairDecision.js';
import { ShingleSetStore, type LoadShingleSets, type ShingleSetSource } from '../verify/shingleSetStore.js';
import type { SignedCorpus } from '../exact/exactPrePass.js';
import { usesShingleSets, verifyPairs, type VerifiedPairs, type VerifyMode } from '../verify/verification.js';

export type { FetchShingleSet, LoadShingleSets, ShingleSetSource } from '../verify/shingleSetStore.js';
export type { SignedCorpus } from '../exact/exactPrePass.js';

/**
 * The options as src/options.ts types them (defaults there): threshold, verify and clusterCheck given, the rest
 * optional.
 */
export interface DedupSettings
  extends Pick<OptionValues, 'threshold' | 'verify' | 'clusterCheck'>,
    Partial<Omit<VerificationOptions, 'verify' | 'clusterCheck'>> {
  readonly lsh: LshParams;
  /**
   * Exact and hybrid: most bytes of shingle sets loaded (default: no limit); past it, their pairs are decided by
   * the estimate. Unused with a source that reads each set when compared (ShingleSetSource.fetch).
   */
  readonly shingleSetBytes?: number;
}

/**
 * The banding `gpudedup dedup` chooses by default: the recall-first weights,
 * and with exact Jaccard in verification (exact, hybrid) P ≥ 0.99 at the threshold.
 */
export function defaultLshParams(threshold: number, k: number, verify: VerifyMode): LshParams {
  const { bands, rows } = optimalParams(
    threshold,
    k,
    DEDUP_WEIGHTS,
    usesShingleSets(verify) ? DEFAULT_RECALL_AT_THRESHOLD : 0,
  );
  return { bands, rows };
}

/**
 * A reference set (decontamination), signed with the corpus's parameters; `sets` are needed for exact and hybrid
 * verification.
 */
export interface SignedReference {
  readonly ids: readonly string[];
  readonly rows: SignatureMatrix;
  readonly sets?: readonly Uint32Array[];
}

/** Runs one named stage, `total` items long; `progress` reports items done. Times it, in the pipeline. */
export type StageRunner = <T>(
  name: string,
  work: (progress: (done: number) => void) => T | Promise<T>,
  total?: number,
) => Promise<T>;

export const UNTIMED: StageRunner = async (_name, work) => work(() => undefined);

export interface Contamination extends ReferenceMatches {
  readonly referenceIds: readonly string[];
  /** 1 for each corpus group matched by the reference set. */
  readonly flags: Uint8Array;
  readonly removedGroups: number;
}

export interface SignedDedup {
  readonly candidateStats: CandidateStats;
  /** Verified near-duplicate pairs, over exact groups. */
  readonly verified: VerifiedPairs;
  readonly clustering: VerifiedClustering;
  readonly assignment: Assignment;
  readonly contamination?: Contamination;
  /**
   * Corpus groups whose shingle sets were loaded for exact Jaccard, and in how many loads (passes, in the pipeline).
   */
  readonly shingleSets: { readonly loaded: number; readonly loads: number; readonly overBudget: number };
}

export async function dedupSigned(
  corpus: SignedCorpus,
  settings: DedupSettings,
  loadShingleSets: LoadShingleSets | ShingleSetSource,
  reference?: SignedReference,
  stage: StageRunner = UNTIMED,
): Promise<SignedDedup> {
  checkDedupSettings(settings, corpus.signatures.k);
  // Spilled signatures add two passes over their file: the band keys, and the candidates' rows after banding.
  const spillStage = isSpilled(corpus.signatures) ? stage : UNTIMED;
  let keys: BandKeySource | undefined = await spillStage('band keys', () =>
    bandKeysOf(corpus.signatures, settings.lsh),
  );
  const { count } = keys;
  const referenceCandidates =
    reference && (await stage('reference banding', () => bandAgainstReference(keys!, reference, settings)));
  let candidates = await stage('banding', (progress) => bandCorpus(keys!, settings, progress), settings.lsh.bands);
  // Only decontamination bands again: otherwise the keys (spilled rows' are 8 bytes a band a text) go before the rows
  // load.
  if (reference === undefined) keys = undefined;
  // Only candidates' rows are read from here on: spilled signatures load just those.
  const signatures = await spillStage('load candidate rows', () =>
    rowsFor(corpus.signatures, () => rowsNeeded(count, candidates, referenceCandidates)),
  );
  const held: HeldCorpus = { table: corpus.table, signatures };
  const referencePairs = reference &&
    referenceCandidates && { combined: concatMatrices(signatures, reference.rows), pairs: referenceCandidates };
  const store = new ShingleSetStore(signatures.count, loadShingleSets, reference?.sets, settings.shingleSetBytes);
  if (usesShingleSets(settings.verify)) {
    const needed = setsNeeded(held, candidates, settings, referencePairs);
    await stage('load shingles', () => store.ensure(needed));
  }

  let contamination: Contamination | undefined;
  if (reference !== undefined && referencePairs !== undefined) {
    contamination = await stage('decontamination', () =>
      decontaminate(referencePairs, reference, signatures.count, settings, store),
    );
    // Band again without them: merely dropping their pairs would also drop the star and chain pairs of a big
    // bucket that run through them, leaving its other members unpaired. Every document of the new pairs was a
    // candidate before (its bucket only lost members), so its row is held, and exact verification has its shingle
    // set already; hybrid may meet new pairs inside its margin and loads what they lack (usually nothing).
    if (contamination.removedGroups > 0) {
      const include = contamination.flags.map((flag) => 1 - flag);
      candidates = await stage(
        'banding without contaminated',
        (progress) => bandCorpus(keys!, settings, progress, include),
        settings.lsh.bands,
      );
      if (settings.verify === 'hybrid')
        await stage('load shingles', () => store.ensure(inMargin(signatures, candidates, settings)));
    }
  }
  const verified = await stage(
    'verification',
    (progress) =>
      verifyPairs(candidates, {
        ...verifySettings(settings),
        signatures,
        exactSimilarity: store.corpus,
        known: store.known,
        onProgress: progress,
      }),
    candidates.a.length,
  );
  const missing = new Uint8Array(signatures.count);
  let clustering = await stage('clustering', () => clusterGroups(held, verified, settings, store, missing));
  if (
    clustering.checkDecided.undecided > 0 &&
    ((await stage('load shingles (cluster check)', () => store.ensure(missing))) || store.overBudget > 0)
  ) {
    // At most this one more load: comparisons the new run meets without sets fail (never remove unverified),
    // unless their sets passed the memory limit: then the estimate decides, as it did for verification.
    clustering = await stage('clustering', () => clusterGroups(held, verified, settings, store));
  }
  const assignment = await stage('assignment', () =>
    assignClusters(corpus.table, clustering.representative, contamination?.flags),
  );
  return {
    candidateStats: candidates.stats,
    verified,
    clustering,
    assignment,
    contamination,
    shingleSets: { loaded: store.loaded, loads: store.loads, overBudget: store.overBudget },
  };
}

/**
 * Every path to a dedup (the CLI, the library, the tab) checks its settings up
 * front with the options table's messages; this is the backstop for callers
 * of the core itself, so a threshold of 1.5 never runs.
 */
export function checkDedupSettings(settings: DedupSettings, k: number): void {
  const { threshold, verify, clusterCheck, maxBucketPairs, chainDelta, maxRepresentatives, estimateError } = settings;
  checkTableOptions({ threshold, verify, clusterCheck, maxBucketPairs, chainDelta, maxRepresentatives, estimateError });
  checkParams(settings.lsh, k);
}

/** The corpus once banded: the rows verification and clustering read (all, or the candidates' when spilled). */
interface HeldCorpus {
  readonly table: DocumentTable;
  readonly signatures: SignatureMatrix;
}

/** The corpus groups in a candidate pair, of the corpus or with the reference set: the rows read after banding. */
function rowsNeeded(count: number, candidates: Candidates, referenceCandidates?: Candidates): Uint8Array {
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
  };
}

/**
 * The corpus groups whose shingle sets exact Jaccard will need: with exact
 * verification those of every candidate pair; with hybrid those of the pairs
 * inside the margin, corpus and reference, and those the representative check
 * will likely compare inside its own margin (checkSetsLikelyNeeded).
 */
function setsNeeded(
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
function verifySettings(settings: DedupSettings) {
  return { verify: settings.verify, threshold: settings.threshold, estimateError: settings.estimateError };
}

/** Hybrid: the documents of pairs inside the estimate's margin at the threshold. */
function inMargin(signatures: SignatureMatrix, pairs: PairList, settings: DedupSettings): Uint8Array {
  const rule = pairRule('hybrid', settings.threshold, signatures, settings.estimateError);
  const needed = new Uint8Array(signatures.count);
  for (let i = 0; i < pairs.a.length; i++) {
    if (estimateVerdict(rule, signatures, pairs.a[i], pairs.b[i]) === 'exact')
      needed[pairs.a[i]] = needed[pairs.b[i]] = 1;
  }
  return needed;
}

/** Hybrid: the candidate pairs the estimate does not reject (accepted, or inside the margin). */
function notRejected(signatures: SignatureMatrix, candidates: PairList, settings: DedupSettings): PairList {
  const rule = pairRule('hybrid', settings.threshold, signatures, settings.estimateError);
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

/** Corpus × reference candidates, and the rows that verify them, corpus first. */
export interface ReferencePairs {
  readonly combined: SignatureMatrix;
  readonly pairs: Candidates;
}

/** Candidate pairs among the corpus groups flagged in `include` (all by default). */
export function bandCorpus(
  keys: BandKeySource,
  settings: DedupSettings,
  onBand?: (bands: number) => void,
  include?: Uint8Array,
): Candidates {
  return findCandidates(keys, { ...settings.lsh, maxBucketPairs: settings.maxBucketPairs, include, onBand });
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
