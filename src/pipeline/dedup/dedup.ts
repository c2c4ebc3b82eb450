/**
 * `gpudedup dedup` without its command line, as a sequence of stages:
 *
 *   list inputs → first pass (exact pre-pass + signing, or presigned rows) →
 *   reference set → dedupSigned (banding, exact sets, decontamination,
 *   verification, clustering, assignment; src/clusters)
 *
 * One signer (GPU device and shingle pool) signs the corpus and the reference
 * set. Writing the outputs is a separate pass (writeOutputs.ts). Passes over
 * the corpus: one to sign; one more with `--verify exact` or `hybrid`, to load
 * the shingle sets of the documents exact Jaccard needs (hybrid: rarely a
 * second, for the cluster check); and the writing pass. Memory: the
 * signatures of the distinct texts (past their share of --memory-limit, spilled
 * to a temporary file and read back as band keys, then the candidates' rows:
 * rowSpill.ts), 12 bytes per document, one band's bucket table, the candidate
 * pairs, and the shingle sets if they fitted their share of the limit during
 * the first pass, which its per-document tables count against (else all go to
 * its temporary file, read one at a time as comparisons need them:
 * setSpill.ts).
 */
import { signatureMatrix, type SignatureMatrix } from '../../bands/signatureMatrix.js';
import {
  checkDedupSettings,
  dedupSigned,
  type SignedCorpus,
  type SignedDedup,
  type SignedReference,
} from '../../dedup/dedupSigned.js';
import { groupIdenticalRows } from '../../exact/exactPrePass.js';
import { StageTimer, type StageCpu } from '../../dedup/stageTimer.js';
import { nodeCpuClock } from '../shared/cpuClock.js';
import { usesShingleSets } from '../../verify/verification.js';
import { auditDedup, type AuditResult } from '../../audit/audit.js';
import { DEFAULT_CHAIN_DELTA } from '../../clusters/nearDuplicates.js';
import type { ReadOptions } from '../../io/documents.js';
import { listInputFiles, totalInputBytes, type InputFile } from '../../io/readDocuments.js';
import { readSignatureFile } from '../../formats/shards/signatureFile.js';
import { schemeOf, shingleOptionsOf } from '../../signatures/params.js';
import type { SignedPassTimings } from '../../firstPass/signedUnits.js';
import {
  refuseAllSkipped,
  skippedInputCounter,
  SILENT_HOOKS,
  stageRunner,
  withProgress,
  runThreads,
  withRunSigner,
  type DedupConfig,
  type DedupHooks,
  type RunSigner,
} from '../shared/config.js';
import { presignedPass, signingPass, type CorpusPassResult } from '../shared/corpusPass.js';
import { signReferenceSet } from './reference.js';
import { loadShingleSets } from './shingleSets.js';
import { defaultMemoryLimit, releaseSpill } from './rowSpill.js';
import { collectingStages, loadedSetShare, overBudgetWarning, setSpool, signatureSpill } from './memoryShares.js';
import type { DocumentRecords } from '../../firstPass/documentRecords.js';
import { nodeStageWorkers } from '../../dedup/node/stageWorkers.js';

export { SILENT_HOOKS, type DedupConfig, type DedupHooks, type StageProgress } from '../shared/config.js';

export interface DedupOutcome extends SignedDedup, SignedCorpus {
  /** `--audit N`: the sample's exact Jaccard and the measured precision (src/audit/audit.ts). */
  readonly audit?: AuditResult;
  readonly files: readonly InputFile[];
  /** From the signature file when the run had no corpus inputs. */
  readonly presignedIds?: readonly string[];
  /** Every document's id and line, from the signing pass (the writing pass copies kept lines by them). */
  readonly records?: DocumentRecords;
  readonly missingKeepField: number;
  /** Malformed lines skipped under `skipInvalid`, in the corpus (first pass) and the reference set. */
  readonly invalidSkipped: number;
  /** Binary files skipped (never documents), in the corpus and the reference set. */
  readonly binarySkipped: readonly string[];
  readonly backend: string;
  /** Milliseconds per stage, in order. */
  readonly timings: Record<string, number>;
  /** CPU milliseconds per stage, of the main thread and of the others (none where the platform does not tell). */
  readonly cpu: Record<string, StageCpu>;
  /** Of the corpus's signing: time waiting for shingles, and in the signer. */
  readonly signing: SignedPassTimings;
}

/** A run's state between stages: what every stage reads, never reassigned. */
interface Run {
  readonly config: DedupConfig;
  readonly hooks: DedupHooks;
  readonly files: readonly InputFile[];
  /** Read options with the skipped-line counter. */
  readonly read: ReadOptions;
  readonly timer: StageTimer;
  readonly signing: SignedPassTimings;
  /** --memory-limit, or its default: shared out by rowSpill.ts's memoryPlan. */
  readonly memoryLimitBytes: number;
}

type Signer = RunSigner;

export async function runDedup(config: DedupConfig, hooks: DedupHooks = SILENT_HOOKS): Promise<DedupOutcome> {
  checkDedupSettings(config, config.params.k); // the options table's checks, before any file is read
  const files = await listInputFiles(config.inputs, hooks.note);
  const invalid = skippedInputCounter(hooks, config.read);
  const run: Run = {
    config,
    hooks,
    files,
    read: { ...config.read, onInvalid: invalid.onInvalid, onBinary: invalid.onBinary },
    timer: new StageTimer(nodeCpuClock()),
    signing: { shingleMs: 0, signMs: 0 },
    memoryLimitBytes: config.memoryLimitBytes ?? defaultMemoryLimit(),
  };
  const { first, reference, backend } = await signStages(run);
  refuseAllSkipped(first.table.documents, invalid); // before any output: they would all be empty
  let core: SignedDedup;
  let audit: AuditResult | undefined;
  await first.sets?.drain?.();
  const workers = stageWorkers(run, first);
  try {
    // SimHash's exact decisions measure the angle between the shingle vectors (exactJaccard.ts), MinHash's Jaccard.
    const measure = schemeOf(config.params) === 'simhash' ? ('angular' as const) : ('jaccard' as const);
    const settings = { ...config, shingleSetBytes: loadedSetShare(run, first), measure };
    const sets = {
      load: (needed: Uint8Array, budget: number) => exactSetsPass(run, first, needed, budget),
      fetch: first.sets?.fetch,
      exact: workers?.exact,
    };
    const stages = collectingStages(stageRunner(hooks, run.timer), workers);
    core = await dedupSigned(first, settings, sets, reference, stages, workers);
    if (core.shingleSets.overBudget > 0) hooks.note(overBudgetWarning(core, settings.shingleSetBytes));
    if (config.audit !== undefined) audit = await timed(run, 'audit', () => auditRun(run, first, core));
  } finally {
    workers?.destroy();
    await Promise.all([releaseSpill(first.signatures), first.sets?.release()]);
  }
  return {
    ...core,
    ...first,
    audit,
    files,
    backend,
    invalidSkipped: invalid.skipped,
    binarySkipped: invalid.binaryFiles,
    timings: run.timer.byName(),
    cpu: run.timer.cpuByName(),
    signing: run.signing,
  };
}

/**
 * The bytes a dedup run's default thread count is sized to (runThreads): the corpus's, as stored; unknown (one
 * thread per core) with a reference set or a signature file, whose work the corpus's size does not tell.
 */
export function dedupInputBytes(config: DedupConfig, files: readonly InputFile[]): number | undefined {
  return config.against.length > 0 || config.signatures !== undefined ? undefined : totalInputBytes(files);
}

/**
 * Worker threads for the stages after the first pass (banding; exact Jaccard and the decisions over the first pass's
 * sets where they lie); none with one thread.
 */
function stageWorkers(run: Run, first: CorpusPassResult) {
  const threads = runThreads(run.config.threads, dedupInputBytes(run.config, run.files));
  return threads <= 1 ? undefined : nodeStageWorkers(threads, first.sets?.share?.());
}

/** The stages that need a signer, which is opened once for them and always released. */
async function signStages(run: Run) {
  const { config } = run;
  const stages = async (signer?: Signer) => {
    const first =
      config.signatures === undefined ? await signCorpus(run, signer!) : await readPresigned(run, config.signatures);
    checkKeepField(config, first);
    const reference = config.against.length > 0 ? await signReference(run, signer!) : undefined;
    // The GPU may have fallen back to the CPU partway: describe what actually signed.
    const backend =
      config.signatures === undefined ? signer!.signer.description : `signatures from ${config.signatures}`;
    return { first, reference, backend };
  };
  const needsSigner = config.signatures === undefined || config.against.length > 0;
  return needsSigner ? withRunSigner(config, run.hooks, dedupInputBytes(config, run.files), stages) : stages();
}

/** `--keep field:NAME` that no document has is a mistyped name, not a ranking: refuse it. */
function checkKeepField(config: DedupConfig, first: CorpusPassResult): void {
  if (config.keep.kind !== 'field' || first.table.documents === 0 || first.missingKeepField < first.table.documents)
    return;
  throw new Error(
    `--keep field:${config.keep.field}: no document has a numeric "${config.keep.field}" field (numbers or numeric strings)`,
  );
}

/** Stage: the first pass, signing the first document of every exact group. */
function signCorpus(run: Run, signer: Signer): Promise<CorpusPassResult> {
  return timed(run, 'read + sign', () =>
    firstPassProgress(run, 'signing', (options) => signingPass(run.files, options, signer.firstPass, run.signing)),
  );
}

/**
 * Stage: presigned rows from `gpudedup sign`, checked against the corpus (or, without one, grouped by identical rows).
 */
async function readPresigned(run: Run, path: string): Promise<CorpusPassResult & { presignedIds?: readonly string[] }> {
  const file = await timed(run, 'load signatures', () =>
    readSignatureFile(path, run.config.params, run.files.length > 0 ? run.config.read : undefined),
  );
  const rows: SignatureMatrix = signatureMatrix(file.words, file.params.k, file.params.slotBits, file.params.bandKeys);
  if (run.files.length === 0) return { ...groupIdenticalRows(rows), missingKeepField: 0, presignedIds: file.ids };
  return timed(run, 'read', () =>
    firstPassProgress(run, 'reading', (options) => presignedPass(run.files, options, { ids: file.ids, rows })),
  );
}

/** Stage: the reference set, signed by the corpus's signer. */
function signReference(run: Run, signer: Signer): Promise<SignedReference> {
  const { config } = run;
  return timed(run, 'reference', () =>
    withProgress(run.hooks, 'reference', undefined, 'items', (progress) =>
      signReferenceSet(
        config.against,
        config.params,
        run.read,
        signer.firstPass,
        usesShingleSets(config.verify),
        progress,
        { shingleMs: 0, signMs: 0 },
      ),
    ),
  );
}

/**
 * Exact Jaccard's shingle sets of the `needed` groups (exact and hybrid verification): those the signing pass
 * kept when they fit its budget, else from one more pass over the corpus.
 */
async function exactSetsPass(
  run: Run,
  first: CorpusPassResult,
  needed: Uint8Array,
  budgetBytes: number,
): Promise<readonly (Uint32Array | undefined)[]> {
  if (first.sets !== undefined) return first.sets.load(needed, budgetBytes);
  const shingle = shingleOptionsOf(run.config.params);
  return withProgress(run.hooks, 'shingles', totalInputBytes(run.files), 'bytes', (progress) =>
    loadShingleSets(run.files, run.config.read, shingle, first.table, needed, progress, budgetBytes),
  );
}

/**
 * Stage: the audit's sample measured by exact Jaccard. Its few shingle sets come from the first pass's spool,
 * or (--verify estimate or none, which keep none) from one more pass over the files that loads only them.
 */
function auditRun(run: Run, first: CorpusPassResult, core: SignedDedup): Promise<AuditResult> {
  const { config } = run;
  if (run.files.length === 0)
    throw new RangeError(
      '--audit needs the corpus as input: exact Jaccard is measured on the shingle sets of the texts',
    );
  const settings = {
    perBin: config.audit!,
    seed: config.auditSeed ?? config.params.seed,
    threshold: config.threshold,
    chainDelta: config.chainDelta ?? DEFAULT_CHAIN_DELTA,
  };
  const input = {
    verified: core.verified,
    assignment: core.assignment,
    table: first.table,
    contaminated: core.contamination?.flags,
  };
  return auditDedup(input, settings, (needed) => exactSetsPass(run, first, needed, Number.POSITIVE_INFINITY));
}

/** Runs a first pass with a progress bar over the input's bytes. */
async function firstPassProgress<T>(
  run: Run,
  label: string,
  pass: (options: Parameters<typeof signingPass>[1]) => Promise<T>,
): Promise<T> {
  const reading = { bytes: 0 };
  const sets = usesShingleSets(run.config.verify) ? setSpool(run) : undefined;
  const result = await withProgress(run.hooks, label, totalInputBytes(run.files), 'bytes', (progress) =>
    pass({
      params: run.config.params,
      keep: run.config.keep,
      sets,
      // The per-document tables share the sets' room: the sets go to disk sooner as they grow.
      onTablesBytes: (bytes) => sets?.reserve(bytes),
      spill: signatureSpill(run),
      read: { ...run.read, onBytes: (b) => (reading.bytes = b) },
      onDocument: (n) => progress.update(n, reading.bytes),
    }),
  );
  await sets?.passDone(); // spilled: the sets held go to the file too, making room for the candidates' rows
  return result;
}

function timed<T>(run: Run, name: string, work: () => Promise<T>): Promise<T> {
  return run.timer.time(name, work);
}
