/**
 * The in-memory core of dedup once the distinct texts are signed, shared by
 * `runDedup` (src/pipeline) and the browser app through `dedupDocuments`:
 *
 *   band the reference set → band the corpus → load shingle sets (exact
 *   verification only) → decontaminate → verify → cluster → assign.
 *
 * Each stage is a named function of the previous stages' results, run through
 * a `StageRunner` that times it (and may show progress). Where exact
 * verification gets its shingle sets is the caller's: from memory in the tab,
 * from one more pass over the files in Node.
 */
import { findCandidates, type CandidateStats, type Candidates } from '../bands/candidates.js';
import type { LshParams } from '../bands/lshParams.js';
import type { SignatureMatrix } from '../bands/signatureMatrix.js';
import { assignClusters, type Assignment } from './assignment.js';
import type { ClusterCheck, Clustering } from './clustering.js';
import { contaminationCandidates, matchReferences, type ReferenceMatches } from './decontaminate.js';
import type { DocumentTable } from './documentTable.js';
import { candidateDocuments, clusterVerified } from './nearDuplicates.js';
import { exactJaccard, verifyPairs, type ExactSimilarity, type VerifiedPairs, type VerifyMode } from './verification.js';

export interface DedupSettings {
  readonly threshold: number;
  readonly lsh: LshParams;
  readonly verify: VerifyMode;
  readonly clusterCheck: ClusterCheck;
  /** Buckets up to this size pair all their members (default 16). */
  readonly maxAllPairs?: number;
}

/** The exact pre-pass's table and one signature row per exact group. */
export interface SignedCorpus {
  readonly table: DocumentTable;
  readonly signatures: SignatureMatrix;
}

/** A reference set (decontamination), signed with the corpus's parameters; `sets` are needed for exact verification. */
export interface SignedReference {
  readonly ids: readonly string[];
  readonly rows: SignatureMatrix;
  readonly sets?: readonly Uint32Array[];
}

/** The shingle sets of the corpus groups flagged 1 in `needed` (the others may be left undefined). */
export type LoadShingleSets = (needed: Uint8Array) => Promise<readonly (Uint32Array | undefined)[]>;

/** Runs one named stage, `total` items long; `progress` reports items done. Times it, in the pipeline. */
export type StageRunner = <T>(name: string, work: (progress: (done: number) => void) => T | Promise<T>, total?: number) => Promise<T>;

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
  readonly clustering: Clustering;
  readonly assignment: Assignment;
  readonly contamination?: Contamination;
}

export async function dedupSigned(
  corpus: SignedCorpus,
  settings: DedupSettings,
  loadShingleSets: LoadShingleSets,
  reference?: SignedReference,
  stage: StageRunner = UNTIMED,
): Promise<SignedDedup> {
  const { signatures } = corpus;
  const referencePairs = reference && (await stage('reference banding', () => bandAgainstReference(signatures, reference, settings)));
  let candidates = await stage('banding', (progress) => bandCorpus(signatures, settings, progress), settings.lsh.bands);
  const sets = settings.verify === 'exact' ? await stage('load shingles', () => loadShingleSets(exactSetsNeeded(signatures.count, candidates, referencePairs))) : [];
  const similarity = exactSimilarities(sets, reference?.sets, signatures.count);

  let contamination: Contamination | undefined;
  if (reference !== undefined && referencePairs !== undefined) {
    contamination = await stage('decontamination', () => decontaminate(referencePairs, reference, signatures.count, settings, similarity.combined));
    // Band again without them: merely dropping their pairs would also drop the star and chain pairs of a big
    // bucket that run through them, leaving its other members unpaired. Every document of the new pairs was a
    // candidate before (its bucket only lost members), so exact verification has its shingle set already.
    if (contamination.removedGroups > 0) {
      const include = contamination.flags.map((flag) => 1 - flag);
      candidates = await stage('banding without contaminated', (progress) => bandCorpus(signatures, settings, progress, include), settings.lsh.bands);
    }
  }
  const verified = await stage(
    'verification',
    (progress) => verifyPairs(candidates, settings.verify, settings.threshold, signatures, similarity.corpus, progress),
    candidates.a.length,
  );
  const clustering = await stage('clustering', () => clusterGroups(corpus, verified, settings, similarity.corpus));
  const assignment = await stage('assignment', () => assignClusters(corpus.table, clustering.representative, contamination?.flags));
  return { candidateStats: candidates.stats, verified, clustering, assignment, contamination };
}

/** Corpus × reference candidate pairs, corpus and reference banded together (combined numbering). */
export function bandAgainstReference(signatures: SignatureMatrix, reference: SignedReference, settings: DedupSettings) {
  const { combined, candidates } = contaminationCandidates(signatures, reference.rows, { ...settings.lsh, ...settings });
  return { combined, pairs: candidates };
}

export type ReferencePairs = ReturnType<typeof bandAgainstReference>;

/** Candidate pairs among the corpus groups flagged in `include` (all by default). */
export function bandCorpus(signatures: SignatureMatrix, settings: DedupSettings, onBand?: (bands: number) => void, include?: Uint8Array): Candidates {
  return findCandidates(signatures, { ...settings.lsh, maxAllPairs: settings.maxAllPairs, include, onBand });
}

/** The corpus groups whose shingle sets exact verification needs: those in a candidate pair. */
export function exactSetsNeeded(count: number, candidates: Candidates, referencePairs?: ReferencePairs): Uint8Array {
  const needed = candidateDocuments(count, candidates);
  if (referencePairs !== undefined) for (let i = 0; i < referencePairs.pairs.a.length; i++) needed[referencePairs.pairs.a[i]] = 1;
  return needed;
}

/** Exact Jaccard among corpus groups, and in the combined numbering (reference j is corpusCount + j). */
function exactSimilarities(sets: readonly (Uint32Array | undefined)[], referenceSets: readonly Uint32Array[] | undefined, corpusCount: number) {
  const corpusSet = (g: number): Uint32Array => {
    const set = sets[g];
    if (set === undefined) throw new Error(`internal: shingle set of group ${g} was not loaded`);
    return set;
  };
  const combinedSet = (i: number): Uint32Array => {
    if (i < corpusCount) return corpusSet(i);
    const set = referenceSets?.[i - corpusCount];
    if (set === undefined) throw new Error(`internal: shingle set of reference document ${i - corpusCount} was not kept`);
    return set;
  };
  const corpus: ExactSimilarity = (a, b) => exactJaccard(corpusSet(a), corpusSet(b));
  const combined: ExactSimilarity = (a, b) => exactJaccard(combinedSet(a), combinedSet(b));
  return { corpus, combined };
}

/** Each corpus group's best verified reference match; matched groups are flagged for removal. */
export function decontaminate(
  referencePairs: ReferencePairs,
  reference: SignedReference,
  corpusCount: number,
  settings: DedupSettings,
  exactSimilarity: ExactSimilarity,
): Contamination {
  const matches = matchReferences(referencePairs.pairs, referencePairs.combined, corpusCount, { ...settings, exactSimilarity });
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

/** Union-find over the verified pairs, with the cluster check measured the way the pairs were verified. */
export function clusterGroups(corpus: SignedCorpus, verified: VerifiedPairs, settings: DedupSettings, exactSimilarity: ExactSimilarity): Clustering {
  return clusterVerified(corpus.signatures, verified, {
    verify: settings.verify,
    exactSimilarity,
    clusterCheck: settings.clusterCheck,
    compare: corpus.table.groupComparator(),
    threshold: settings.threshold,
  });
}
