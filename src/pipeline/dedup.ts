/**
 * `gpudedup dedup` without its command line: read and sign the corpus (or take
 * signatures from `gpudedup sign`), decontaminate against a reference set,
 * band, verify, cluster and decide what is kept. Writing the outputs is a
 * separate second pass (src/output/dedupWriters.ts).
 *
 * Passes over the corpus: one to sign; one more, only with `--verify exact`,
 * to load the shingle sets of the documents that are candidates; and the
 * writing pass. Memory: the signatures of the distinct texts, 12 bytes per
 * document, one band's bucket table and the candidate pairs.
 */
import { findCandidates, type CandidateStats } from '../bands/candidates.js';
import type { LshParams } from '../bands/lshParams.js';
import { fromSignerWords, isEmptySignature, rowWords, signatureMatrix, type SignatureMatrix } from '../bands/signatureMatrix.js';
import type { ReadOptions } from '../io/documents.js';
import { listInputFiles, readDocuments, totalInputBytes, type InputFile } from '../io/readDocuments.js';
import { readSignatureFile } from '../formats/signatureFile.js';
import { shingleDocument } from '../shingles/shingles.js';
import { hashFamilyOf, shingleOptionsOf, type SignatureParams } from '../signatures/params.js';
import { signDocuments } from '../signatures/signDocuments.js';
import { openSigner, type BackendChoice } from '../signatures/resolveBackend.js';
import { assignClusters, type Assignment } from '../clusters/assignment.js';
import type { ClusterCheck } from '../clusters/clustering.js';
import { corpusPass, RowStore, type CorpusPassOptions } from './corpusPass.js';
import { DocumentTable } from '../clusters/documentTable.js';
import { ExactDuplicateIndex } from '../clusters/exactDuplicates.js';
import type { KeepPolicy } from '../clusters/keepPolicy.js';
import { candidateDocuments, clusterVerified } from '../clusters/nearDuplicates.js';
import { contaminationCandidates, matchReferences, type ReferenceMatches } from '../clusters/decontaminate.js';
import { exactJaccard, verifyPairs, type VerifiedPairs, type VerifyMode } from '../clusters/verification.js';

export interface DedupConfig {
  /** Corpus files; may be empty when `signatures` is given (then only clusters and the report come out). */
  readonly inputs: readonly string[];
  readonly read: ReadOptions;
  /** Signature parameters; with `signatures`, those of the file. */
  readonly params: SignatureParams;
  readonly backend: BackendChoice;
  /** Worker threads of the CPU backend; default one per core. */
  readonly cpuThreads?: number;
  readonly threshold: number;
  readonly lsh: LshParams;
  readonly verify: VerifyMode;
  readonly clusterCheck: ClusterCheck;
  readonly keep: KeepPolicy;
  /** Reference files for decontamination. */
  readonly against: readonly string[];
  /** A `.npy` from `gpudedup sign` over the same inputs, instead of signing them. */
  readonly signatures?: string;
  readonly maxAllPairs?: number;
}

export interface StageProgress {
  update(done: number, bytes?: number): void;
  stop(): void;
}

export interface DedupHooks {
  note(message: string): void;
  /** A progress bar for a stage: total in bytes for reading stages, in items otherwise. */
  stage(label: string, total: number | undefined, unit: 'bytes' | 'items'): StageProgress;
}

export const SILENT_HOOKS: DedupHooks = {
  note: () => undefined,
  stage: () => ({ update: () => undefined, stop: () => undefined }),
};

/** Decontamination's matches (per exact group: `match` is the index of the best reference document, or −1), with the reference ids. */
export interface Contamination extends ReferenceMatches {
  readonly referenceIds: string[];
}

export interface DedupOutcome {
  readonly files: readonly InputFile[];
  readonly table: DocumentTable;
  readonly signatures: SignatureMatrix;
  readonly assignment: Assignment;
  /** Verified near-duplicate pairs, over exact groups. */
  readonly verified: VerifiedPairs;
  readonly candidateStats: CandidateStats;
  readonly splitOff: number;
  readonly contamination?: Contamination;
  /** From the signature file when the run had no corpus inputs. */
  readonly presignedIds?: readonly string[];
  readonly missingKeepField: number;
  /** Malformed lines skipped under `skipInvalid`, in the corpus (first pass) and the reference set. */
  readonly invalidSkipped: number;
  readonly backend: string;
  /** Milliseconds per stage, in order. */
  readonly timings: Record<string, number>;
}

export async function runDedup(config: DedupConfig, hooks: DedupHooks = SILENT_HOOKS): Promise<DedupOutcome> {
  const timings: Record<string, number> = {};
  const timed = async <T>(name: string, work: () => Promise<T> | T): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      timings[name] = (timings[name] ?? 0) + performance.now() - started;
    }
  };
  const files = await listInputFiles(config.inputs);
  const totalBytes = totalInputBytes(files);

  // 1. Read, group exact duplicates, sign.
  let table: DocumentTable;
  let signatures: SignatureMatrix;
  let missingKeepField = 0;
  let backendDescription: string;
  let presignedIds: string[] | undefined;
  const reading = { bytes: 0 };
  // Counted on the first pass only: later passes meet the same lines again.
  let invalidSkipped = 0;
  const countInvalid = (message: string): void => {
    invalidSkipped++;
    hooks.note(`skipped ${message}`);
    config.read.onInvalid?.(message);
  };
  // The first pass over the corpus: exact groups, keep scores, and the signatures (signed, or checked against presigned ones).
  const firstPass = (stage: string, label: string, source: Pick<CorpusPassOptions, 'presigned' | 'backend' | 'shingler'>) =>
    timed(stage, () =>
      withProgress(hooks, label, totalBytes, 'bytes', (progress) =>
        corpusPass(files, {
          params: config.params,
          keep: config.keep,
          read: { ...config.read, onBytes: (b) => (reading.bytes = b), onInvalid: countInvalid },
          onDocument: (n) => progress.update(n, reading.bytes),
          ...source,
        }),
      ),
    );
  if (config.signatures !== undefined) {
    const file = await timed('load signatures', () => readSignatureFile(config.signatures!, config.params));
    const rows = signatureMatrix(file.words, file.params.k, file.params.slotBits);
    backendDescription = `signatures from ${config.signatures}`;
    if (files.length > 0) {
      ({ table, signatures, missingKeepField } = await firstPass('read', 'reading', { presigned: { ids: file.ids, rows } }));
    } else {
      ({ table, signatures } = groupIdenticalRows(rows));
      presignedIds = file.ids;
    }
  } else {
    const family = hashFamilyOf(config.params);
    const { signer: backend, shingler, notes } = await openSigner(config.backend, family, {
      cpuThreads: config.cpuThreads,
      onFallback: (error) => hooks.note(`warning: the GPU backend failed (${error.message}); finishing on the CPU`),
    });
    for (const line of notes) hooks.note(`backend ${line}`);
    try {
      ({ table, signatures, missingKeepField } = await firstPass('read + sign', 'signing', { backend, shingler }));
      // The GPU may have fallen back to the CPU partway: describe what actually signed.
      backendDescription = backend.description;
    } finally {
      backend.destroy();
      shingler.destroy();
    }
  }

  // 2. Reference set: signed like the corpus (same parameters), never deduplicated.
  let reference: { ids: string[]; rows: SignatureMatrix; sets?: Uint32Array[] } | undefined;
  if (config.against.length > 0) {
    reference = await timed('reference', () => signReference(config, hooks, countInvalid));
  }

  // 3. Candidates: near-duplicates among the corpus, and corpus × reference.
  const referenceCandidates =
    reference === undefined
      ? undefined
      : await timed('banding', () => {
          const { combined, candidates: pairs } = contaminationCandidates(signatures, reference!.rows, {
            ...config.lsh,
            threshold: config.threshold,
            verify: config.verify,
            maxAllPairs: config.maxAllPairs,
          });
          return { combined, pairs };
        });
  const bandCorpus = (include?: Uint8Array) =>
    timed('banding', () =>
      withProgress(hooks, 'banding', config.lsh.bands, 'items', (progress) =>
        findCandidates(signatures, { ...config.lsh, maxAllPairs: config.maxAllPairs, include, onBand: (n) => progress.update(n) }),
      ),
    );
  let candidates = await bandCorpus();

  // 4. Exact verification needs the shingle sets of every candidate document.
  let sets: (Uint32Array | undefined)[] = [];
  if (config.verify === 'exact') {
    const needed = candidateDocuments(signatures.count, candidates);
    if (referenceCandidates) {
      for (let i = 0; i < referenceCandidates.pairs.a.length; i++) needed[referenceCandidates.pairs.a[i]] = 1;
    }
    sets = await timed('load shingles', () =>
      withProgress(hooks, 'shingles', totalBytes, 'bytes', (progress) => loadShingleSets(files, config, table, needed, progress)),
    );
  }
  const exactOf = (g: number): Uint32Array => {
    const set = sets[g];
    if (set === undefined) throw new Error(`internal: shingle set of group ${g} was not loaded`);
    return set;
  };

  // 5. Decontamination, then near-duplicates among what is left.
  let contamination: Contamination | undefined;
  let contaminated: Uint8Array | undefined;
  if (reference !== undefined && referenceCandidates !== undefined) {
    const corpusCount = signatures.count;
    const exact = (a: number, b: number): number =>
      exactJaccard(a < corpusCount ? exactOf(a) : reference!.sets![a - corpusCount], b < corpusCount ? exactOf(b) : reference!.sets![b - corpusCount]);
    contamination = await timed('verification', () =>
      ({
        referenceIds: reference!.ids,
        ...matchReferences(referenceCandidates.pairs, referenceCandidates.combined, corpusCount, { ...config, exactSimilarity: exact }),
      }),
    );
    contaminated = new Uint8Array(corpusCount);
    let removed = 0;
    for (let g = 0; g < corpusCount; g++) {
      if (contamination.match[g] >= 0) {
        contaminated[g] = 1;
        removed++;
      }
    }
    // Band again without them: merely dropping their pairs would also drop the star and chain pairs of a big
    // bucket that run through them, leaving its other members unpaired. Every document of the new pairs was a
    // candidate before (its bucket only lost members), so exact verification has its shingle set already.
    if (removed > 0) {
      const include = new Uint8Array(corpusCount);
      for (let g = 0; g < corpusCount; g++) include[g] = 1 - contaminated[g];
      candidates = await bandCorpus(include);
    }
  }
  const exactSimilarity = (a: number, b: number): number => exactJaccard(exactOf(a), exactOf(b));
  const verified = await timed('verification', () =>
    withProgress(hooks, 'verifying', candidates.a.length, 'items', (progress) =>
      verifyPairs(candidates, config.verify, config.threshold, signatures, exactSimilarity, (n) => progress.update(n)),
    ),
  );

  // 6. Clusters, then which document of each is kept.
  const { clustering, assignment } = await timed('clustering', () => {
    const clustering = clusterVerified(signatures, verified, {
      verify: config.verify,
      exactSimilarity,
      clusterCheck: config.clusterCheck,
      compare: table.groupComparator(),
      threshold: config.threshold,
    });
    return { clustering, assignment: assignClusters(table, clustering.representative, contaminated) };
  });

  return {
    files,
    table,
    signatures,
    assignment,
    verified,
    candidateStats: candidates.stats,
    splitOff: clustering.splitOff,
    contamination,
    presignedIds,
    missingKeepField,
    invalidSkipped,
    backend: backendDescription,
    timings,
  };
}

async function withProgress<T>(
  hooks: DedupHooks,
  label: string,
  total: number | undefined,
  unit: 'bytes' | 'items',
  work: (progress: StageProgress) => Promise<T> | T,
): Promise<T> {
  const progress = hooks.stage(label, total, unit);
  try {
    return await work(progress);
  } finally {
    progress.stop();
  }
}

/** Without the corpus, the exact pre-pass groups identical signature rows (identical shingle sets). */
function groupIdenticalRows(rows: SignatureMatrix): { table: DocumentTable; signatures: SignatureMatrix } {
  const table = new DocumentTable();
  const index = new ExactDuplicateIndex();
  const store = new RowStore(rows.k, rows.slotBits);
  const width = rowWords(rows.k, rows.slotBits);
  for (let d = 0; d < rows.count; d++) {
    if (isEmptySignature(rows, d)) {
      table.add(-1, 0);
      continue;
    }
    const row = rows.words.subarray(d * width, (d + 1) * width);
    const { group, isNew } = index.add(new Uint8Array(row.buffer, row.byteOffset, row.byteLength));
    table.add(group, 0);
    if (isNew) store.append(row);
  }
  return { table, signatures: store.finish() };
}

async function signReference(config: DedupConfig, hooks: DedupHooks, onInvalid: (message: string) => void) {
  const files = await listInputFiles(config.against);
  const family = hashFamilyOf(config.params);
  const { signer: backend, shingler } = await openSigner(config.backend, family, { cpuThreads: config.cpuThreads });
  const ids: string[] = [];
  const sets: Uint32Array[] = [];
  const store = new RowStore(config.params.k, config.params.slotBits);
  const shingle = shingleOptionsOf(config.params);
  const keepSets = config.verify === 'exact';
  async function* documents() {
    for await (const doc of readDocuments(files, { ...config.read, onInvalid })) {
      ids.push(doc.id);
      yield doc;
    }
  }
  const progress = hooks.stage('reference', undefined, 'items');
  try {
    for await (const batch of signDocuments(documents(), backend, { shingle, shingler })) {
      store.append(fromSignerWords(batch.signatures, config.params.slotBits));
      if (keepSets) sets.push(...batch.sets); // the pipeline's own sets: no second shingling
      progress.update(ids.length);
    }
  } finally {
    progress.stop();
    backend.destroy();
    shingler.destroy();
  }
  return { ids, rows: store.finish(), sets: keepSets ? sets : undefined };
}

/** The second, optional pass: shingle sets of the flagged groups, from each group's first document. */
async function loadShingleSets(
  files: readonly InputFile[],
  config: DedupConfig,
  table: DocumentTable,
  needed: Uint8Array,
  progress: StageProgress,
): Promise<(Uint32Array | undefined)[]> {
  if (files.length === 0) throw new Error('--verify exact needs the corpus: the shingle sets are recomputed from the text');
  const sets: (Uint32Array | undefined)[] = new Array(needed.length);
  const shingle = shingleOptionsOf(config.params);
  let bytes = 0;
  let documents = 0;
  for await (const doc of readDocuments(files, { ...config.read, onBytes: (b) => (bytes = b) })) {
    if (doc.index >= table.documents) {
      documents++; // one more than the first pass saw
      break;
    }
    const g = table.group(doc.index);
    if (g >= 0 && needed[g] === 1 && sets[g] === undefined) sets[g] = shingleDocument(doc.text, shingle);
    documents++;
    if ((doc.index & 255) === 0) progress.update(doc.index, bytes);
  }
  if (documents !== table.documents) {
    throw new Error(`the input changed between passes: ${table.documents} documents were signed, ${documents < table.documents ? `only ${documents}` : 'more'} read again for --verify exact`);
  }
  return sets;
}
