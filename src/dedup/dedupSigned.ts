/**
 * The in-memory core of dedup once the distinct texts are signed, shared by
 * `runDedup` (src/pipeline) and the browser app through `dedupDocuments`:
 *
 *   band the reference set → band the corpus → load shingle sets (exact
 *   and hybrid verification) → decontaminate → verify → cluster (with the
 *   representative check; hybrid may load the sets it lacks once more) →
 *   assign.
 *
 * Each stage is a named function (dedupStages.ts) of the previous stages' results, run through
 * a `StageRunner` that times it (and may show progress). Where exact
 * exact Jaccard gets its shingle sets is the caller's: from memory in the tab,
 * from one more pass over the files in Node.
 */
import type { BandKeySource } from '../bands/bandKeySource.js';
import type { BandWorkerPool } from '../bands/bandWorkers.js';
import type { Candidates, CandidateStats } from '../bands/candidates.js';
import {
  checkParams,
  DEDUP_WEIGHTS,
  defaultRecallAtThreshold,
  optimalParams,
  type LshParams,
} from '../bands/lshParams.js';
import { concatMatrices } from '../bands/signatureMatrix.js';
import { bandKeysOf, isSpilled, rowsFor } from '../bands/spilledSignatures.js';
import type { RowWorkerPool } from '../bands/rowWorkers.js';
import { assignClusters, type Assignment } from '../clusters/assignment.js';
import { candidateDocuments, type VerifiedClustering } from '../clusters/nearDuplicates.js';
import type { SignedCorpus } from '../exact/exactPrePass.js';
import { checkTableOptions } from '../options.js';
import type { ExactPairs } from '../verify/exactWorkers.js';
import { ShingleSetStore, type LoadShingleSets, type ShingleSetSource } from '../verify/shingleSetStore.js';
import {
  usesShingleSets,
  verifyPairs,
  verifyPairsOnWorkers,
  type VerifiedPairs,
  type VerifyMode,
} from '../verify/verification.js';
import {
  bandAgainstReference,
  bandCorpus,
  clusterGroups,
  clusterGroupsOn,
  decontaminate,
  inMargin,
  rowsNeeded,
  setsNeeded,
  verifySettings,
} from './dedupStages.js';
import type { Contamination, DedupSettings, HeldCorpus, ReferencePairs, SignedReference } from './dedupTypes.js';

export type { FetchShingleSet, LoadShingleSets, ShingleSetSource } from '../verify/shingleSetStore.js';
export type { SignedCorpus } from '../exact/exactPrePass.js';
export type { Contamination, DedupSettings, SignedReference } from './dedupTypes.js';

/**
 * The banding `gpudedup dedup` chooses by default: the recall-first weights,
 * and with exact Jaccard in verification (exact, hybrid) P ≥ defaultRecallAtThreshold at the threshold.
 */
export function defaultLshParams(threshold: number, k: number, verify: VerifyMode): LshParams {
  const { bands, rows } = optimalParams(
    threshold,
    k,
    DEDUP_WEIGHTS,
    defaultRecallAtThreshold(threshold, k, usesShingleSets(verify)),
  );
  return { bands, rows };
}

/** Runs one named stage, `total` items long; `progress` reports items done. Times it, in the pipeline. */
export type StageRunner = <T>(
  name: string,
  work: (progress: (done: number) => void) => T | Promise<T>,
  total?: number,
) => Promise<T>;

/** Worker threads the stages after the first pass may use (each optional: without, the stage runs here). */
export interface PostPassWorkers {
  readonly banding?: BandWorkerPool;
  /** Spilled rows read in ranges: band keys and the candidates' rows. */
  readonly rows?: RowWorkerPool;
}

export const UNTIMED: StageRunner = async (_name, work) => work(() => undefined);
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
  workers: PostPassWorkers = {},
): Promise<SignedDedup> {
  checkDedupSettings(settings, corpus.signatures.k);
  const banded = await bandAndLoad(corpus, settings, loadShingleSets, reference, stage, workers);
  const { held, store } = banded;
  const { signatures } = held;
  let { candidates } = banded;
  let contamination: Contamination | undefined;
  if (reference !== undefined && banded.referencePairs !== undefined) {
    ({ contamination, candidates } = await decontaminateAndBand(
      banded,
      banded.referencePairs,
      reference,
      settings,
      stage,
      workers,
    ));
  }
  // The workers decide every pair where they can read the sets where they lie (shared memory, the spill file).
  const onWorkers = usesShingleSets(settings.verify) ? store.exact : undefined;
  const verified = await stage(
    'verification',
    (progress) => {
      const options = {
        ...verifySettings(settings),
        signatures,
        exactSimilarity: store.corpus,
        known: store.known,
        onProgress: progress,
      };
      return onWorkers !== undefined
        ? verifyPairsOnWorkers(candidates, options, onWorkers)
        : verifyPairs(candidates, options);
    },
    candidates.a.length,
  );
  const clustering = await clusterChecked(held, verified, settings, store, stage, onWorkers);
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

/** The corpus banded (and against the reference set), with the rows and shingle sets verification reads. */
interface Banded {
  /** The band keys, kept only to band again without the contaminated groups. */
  readonly keys?: BandKeySource;
  readonly candidates: Candidates;
  readonly held: HeldCorpus;
  readonly referencePairs?: ReferencePairs;
  readonly store: ShingleSetStore;
}

async function bandAndLoad(
  corpus: SignedCorpus,
  settings: DedupSettings,
  loadShingleSets: LoadShingleSets | ShingleSetSource,
  reference: SignedReference | undefined,
  stage: StageRunner,
  workers: PostPassWorkers,
): Promise<Banded> {
  // Spilled signatures add two passes over their file: the band keys, and the candidates' rows after banding.
  const spillStage = isSpilled(corpus.signatures) ? stage : UNTIMED;
  // Progress in rows read; the workers read them where given.
  const reading = (onRows: (rows: number) => void) => ({ pool: workers.rows, onRows });
  const rows = corpus.signatures.count;
  let keys: BandKeySource | undefined = await spillStage(
    'band keys',
    (progress) => bandKeysOf(corpus.signatures, settings.lsh, reading(progress)),
    rows,
  );
  const { count } = keys;
  const referenceCandidates =
    reference && (await stage('reference banding', () => bandAgainstReference(keys!, reference, settings)));
  const candidates = await stage(
    'banding',
    (progress) => bandCorpus(keys!, settings, progress, undefined, workers.banding),
    settings.lsh.bands,
  );
  // Only decontamination bands again: otherwise the keys (spilled rows' are 8 bytes a band a text) go before the rows
  // load.
  if (reference === undefined) keys = undefined;
  // Only candidates' rows are read from here on: spilled signatures load just those.
  const signatures = await spillStage(
    'load candidate rows',
    (progress) =>
      rowsFor(corpus.signatures, () => rowsNeeded(count, candidates, referenceCandidates), reading(progress)),
    rows,
  );
  const held: HeldCorpus = { table: corpus.table, signatures };
  const referencePairs = reference &&
    referenceCandidates && { combined: concatMatrices(signatures, reference.rows), pairs: referenceCandidates };
  const store = new ShingleSetStore(
    signatures.count,
    loadShingleSets,
    reference?.sets,
    settings.shingleSetBytes,
    settings.measure,
  );
  // Sets read where they lie need no list of what to load: finding it costs a clustering pass (hybrid).
  if (usesShingleSets(settings.verify))
    await stage('load shingles', () =>
      store.readsWhereTheyLie ? false : store.ensure(setsNeeded(held, candidates, settings, referencePairs)),
    );
  return { keys, candidates, held, referencePairs, store };
}

/** Decontamination, then the corpus banded again without the groups it removes. */
async function decontaminateAndBand(
  banded: Banded,
  referencePairs: ReferencePairs,
  reference: SignedReference,
  settings: DedupSettings,
  stage: StageRunner,
  workers: PostPassWorkers,
): Promise<{ contamination: Contamination; candidates: Candidates }> {
  const { keys, store } = banded;
  const { signatures } = banded.held;
  let { candidates } = banded;
  const contamination = await stage('decontamination', () =>
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
      (progress) => bandCorpus(keys!, settings, progress, include, workers.banding),
      settings.lsh.bands,
    );
    if (settings.verify === 'hybrid')
      await stage('load shingles', () => store.ensure(inMargin(signatures, candidates, settings)));
  }
  return { contamination, candidates };
}

function countFlagged(flags: Uint8Array): number {
  let count = 0;
  for (const flag of flags) count += flag;
  return count;
}

/**
 * Clustering, once more after loading the shingle sets the representative check lacked (hybrid); or with the check's
 * comparisons decided on the workers, which read every set where it lies.
 */
async function clusterChecked(
  held: HeldCorpus,
  verified: VerifiedPairs,
  settings: DedupSettings,
  store: ShingleSetStore,
  stage: StageRunner,
  onWorkers?: ExactPairs,
): Promise<VerifiedClustering> {
  if (onWorkers !== undefined)
    return stage(
      'clustering',
      (progress) => clusterGroupsOn(held, verified, settings, store, onWorkers, progress),
      countFlagged(candidateDocuments(held.signatures.count, verified)),
    );
  const missing = new Uint8Array(held.signatures.count);
  let clustering = await stage('clustering', () => clusterGroups(held, verified, settings, store, missing));
  if (
    clustering.checkDecided.undecided > 0 &&
    ((await stage('load shingles (cluster check)', () => store.ensure(missing))) || store.overBudget > 0)
  ) {
    // At most this one more load: comparisons the new run meets without sets fail (never remove unverified),
    // unless their sets passed the memory limit: then the estimate decides, as it did for verification.
    clustering = await stage('clustering', () => clusterGroups(held, verified, settings, store));
  }
  return clustering;
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
