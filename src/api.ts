/**
 * The library's front door (Node), in the style of hash-wasm: a one-shot
 * function beside a reusable `create…` object. `minhash` / `createMinHasher`
 * sign texts; `dedup` deduplicates documents held in memory. Everything below
 * them (shingling, backends, banding, clustering) is exported from
 * src/index.ts too, for callers that need one stage alone.
 */
import { checkParams, type LshParams } from './bands/lshParams.js';
import { simhashBanding } from './bands/simhashBands.js';
import { defaultLshParams } from './dedup/dedupSigned.js';
import { fromSignerWords } from './bands/signatureMatrix.js';
import { dedupDocuments, textUnits, type DedupDocumentsResult, type InMemoryDocument } from './dedup/dedupDocuments.js';
import type { KeepPolicy } from './text/keepPolicy.js';
import {
  fullSlotBits,
  hashFamilyOf,
  makeParams,
  shingleOptionsOf,
  type SignatureOptions,
  type SignatureParams,
} from './signatures/params.js';
import { openSigner, type BackendChoice } from './firstPass/node/resolveBackend.js';
import { rowsOfEveryDocument, signedUnits } from './firstPass/signedUnits.js';
import { requireUniqueIdsInMemory } from './exact/uniqueIds.js';
import { availableParallelism } from 'node:os';
import {
  defaultThreads,
  optionValue,
  type OptionValues,
  type VerificationOptions,
  type VerifyMode,
} from './options.js';
import { checkDocuments, checkOptions, checkStrings } from './arguments.js';
import type { AuditResult } from './audit/audit.js';
import { auditInMemory } from './dedup/auditInMemory.js';
import { nodeStageWorkers } from './dedup/node/stageWorkers.js';

/** The options each function takes: any other key is refused, each value checked by the table (src/options.ts). */
const SIGNATURE_OPTIONS = [
  'scheme',
  'weights',
  'idf',
  'seed',
  'k',
  'shingle',
  'n',
  'nfkc',
  'stripPunctuation',
  'slotBits',
  'bandKeys',
] as const;
const MINHASH_OPTIONS = [...SIGNATURE_OPTIONS, 'backend', 'threads'] as const;
const DEDUP_OPTIONS = [
  ...MINHASH_OPTIONS,
  'threshold',
  'lsh',
  'verify',
  'clusterCheck',
  'chainDelta',
  'maxRepresentatives',
  'estimateError',
  'keep',
  'maxBucketPairs',
  'against',
  'audit',
  'auditSeed',
  'maxHamming',
] as const;

export interface MinHashOptions extends SignatureOptions {
  /** `auto` (default): WebGPU when Dawn finds an adapter, else the CPU; `cpu` and `webgpu` force one. */
  readonly backend?: BackendChoice;
  /** Worker threads for the CPU backend, shingling and (dedup) the stages after signing; default one per core. */
  readonly threads?: number;
}

/**
 * Signatures of `rows` documents, `k` slots each, row-major: `BigUint64Array`
 * for 64-bit slots, `Uint32Array` for 32-bit ones (the rows of the `.npy`
 * `gpudedup sign` writes). A document without shingles has every slot all-ones.
 */
export interface Signatures {
  readonly rows: number;
  readonly k: number;
  readonly slots: BigUint64Array | Uint32Array;
}

export interface MinHasher {
  readonly params: SignatureParams;
  /** What signs, e.g. "CPU (TypeScript, 32-bit lanes, 2 threads)" or the GPU adapter. */
  readonly backend: string;
  /** Why this backend: one line per candidate tried. */
  readonly notes: readonly string[];
  sign(texts: readonly string[]): Promise<Signatures>;
  /** Releases the GPU device and worker threads (a Dawn device keeps a core busy until then). */
  destroy(): void;
}

/**
 * A reusable signer: one backend (GPU device or CPU workers) for many calls.
 *
 * @example
 * const hasher = await createMinHasher({ k: 128, backend: 'cpu' });
 * try {
 *   const { slots, k } = await hasher.sign(['the quick brown fox jumps over the lazy dog']);
 *   console.log(slots[0], hasher.backend); // first slot of the first document
 * } finally {
 *   hasher.destroy();
 * }
 */
export async function createMinHasher(options: MinHashOptions = {}): Promise<MinHasher> {
  const params = makeParams(checkOptions(options, MINHASH_OPTIONS, 'createMinHasher'));
  const slotBits = fullSlotBits(params);
  const { signer, firstPass, notes } = await openSigner(optionValue('backend', options.backend), hashFamilyOf(params), {
    cpuThreads: options.threads,
  });
  const setup = {
    read: { textField: 'text', idField: 'id', skipInvalid: false, strict: false },
    shingle: shingleOptionsOf(params),
    keep: { kind: 'first' } as const,
  };
  return {
    params,
    notes,
    get backend() {
      return signer.description; // may change: a failing GPU hands over to the CPU
    },
    async sign(texts) {
      checkStrings(texts, 'sign', 'texts');
      const slots =
        slotBits === 64 ? new BigUint64Array(texts.length * params.k) : new Uint32Array(texts.length * params.k);
      // 64-bit slots as (lo, hi) words: little-endian, like every WebAssembly and WebGPU host
      const words = new Uint32Array(slots.buffer);
      let row = 0;
      const units = textUnits(texts.map((text, i) => ({ id: String(i), text })));
      for await (const unit of signedUnits(units, firstPass, { setup, keepSets: false })) {
        words.set(fromSignerWords(rowsOfEveryDocument(unit, params.k), slotBits), row * params.k * (slotBits / 32));
        row += unit.documents.count;
      }
      return { rows: texts.length, k: params.k, slots };
    },
    destroy() {
      signer.destroy();
      firstPass.workers.destroy();
    },
  };
}

/**
 * Signs texts once and releases the backend.
 *
 * @example
 * const { slots, k } = await minhash(['first document text', 'second document text'], { k: 64, backend: 'cpu' });
 * // slots.length === 2 * k; row d is slots.subarray(d * k, (d + 1) * k)
 */
export async function minhash(texts: readonly string[], options: MinHashOptions = {}): Promise<Signatures> {
  checkStrings(texts, 'minhash', 'texts');
  const hasher = await createMinHasher(options);
  try {
    return await hasher.sign(texts);
  } finally {
    hasher.destroy();
  }
}

/**
 * The option table's fields (src/options.ts: types, defaults, checks), each optional; `keep` also in the CLI's
 * spellings.
 */
export interface DedupOptions
  extends MinHashOptions,
    Partial<Pick<OptionValues, 'threshold' | 'audit' | 'auditSeed' | 'maxHamming'> & VerificationOptions> {
  /** Bands × rows; default the optimizer's choice for the threshold (as `gpudedup params` shows). */
  readonly lsh?: LshParams;
  /** default first; the CLI's spellings ('longest', 'field:quality') too. */
  readonly keep?: KeepPolicy | string;
  /** Reference documents: corpus documents near-duplicate to one of them are removed. */
  readonly against?: readonly (string | InMemoryDocument)[];
}

/**
 * The threshold, banding and measure of a run: MinHash's from the options; SimHash's (as `--scheme simhash` has them)
 * from maxHamming by Manku's block tables, its exact decisions by the angle between the shingle vectors.
 */
function banding(options: DedupOptions, k: number, verify: VerifyMode) {
  if (options.scheme !== 'simhash') {
    const threshold = optionValue('threshold', options.threshold);
    return { threshold, lsh: options.lsh ?? defaultLshParams(threshold, k, verify), measure: 'jaccard' as const };
  }
  for (const name of ['threshold', 'lsh', 'audit'] as const)
    if (options[name] !== undefined) throw new RangeError(`dedup: scheme simhash bands by maxHamming, not ${name}`);
  const maxHamming = optionValue('maxHamming', options.maxHamming);
  return { ...simhashBanding(maxHamming), measure: 'angular' as const };
}

export interface DedupResult extends DedupDocumentsResult {
  /** What signed. */
  readonly backend: string;
  /** With `audit`: the measured precision and removed share below threshold − δ, with 95 % Wilson intervals. */
  readonly audit?: AuditResult;
}

/**
 * Deduplicates documents in memory, exactly as `gpudedup dedup` would the
 * same documents with the same options.
 *
 * @example
 * const { assignment } = await dedup(['a b c d e f g', 'a b c d e f g', 'something else'], { backend: 'cpu' });
 * assignment.kept;    // Uint8Array [1, 0, 1]: one flag per document, in order
 * assignment.cluster; // Uint32Array [0, 0, 1]
 */
export async function dedup(
  documents: readonly (string | InMemoryDocument)[],
  options: DedupOptions = {},
): Promise<DedupResult> {
  checkDocuments(documents, 'dedup', true);
  if (options?.against !== undefined) checkDocuments(options.against, 'dedup: against', true);
  const params = makeParams(checkOptions(options, DEDUP_OPTIONS, 'dedup'));
  const slotBits = fullSlotBits(params);
  const verify = optionValue('verify', options.verify);
  const { threshold, lsh, measure } = banding(options, params.k, verify);
  checkParams(lsh, params.k);
  const asDocument = (d: string | InMemoryDocument, i: number): InMemoryDocument =>
    typeof d === 'string' ? { id: String(i), text: d } : d;
  const corpus = documents.map(asDocument);
  requireUniqueIdsInMemory(corpus); // as the CLI's first pass refuses a repeated id
  // The texts' length stands for the input's bytes that the default thread count is sized to (defaultThreads).
  const inputBytes = [...corpus, ...(options.against ?? []).map(asDocument)].reduce((n, d) => n + d.text.length, 0);
  const { signer, firstPass } = await openSigner(optionValue('backend', options.backend), hashFamilyOf(params), {
    cpuThreads: options.threads,
    inputBytes,
  });
  // The stages after signing on worker threads too (started on their first request), as the CLI runs them.
  const threads = options.threads ?? defaultThreads(availableParallelism(), inputBytes);
  const stageWorkers = threads > 1 ? nodeStageWorkers(threads) : undefined;
  try {
    const result = await dedupDocuments(corpus, {
      stageWorkers: stageWorkers?.pool,
      backend: signer,
      signer: firstPass,
      shingle: shingleOptionsOf(params),
      slotBits,
      threshold,
      lsh,
      verify,
      clusterCheck: optionValue('clusterCheck', options.clusterCheck),
      chainDelta: options.chainDelta,
      maxRepresentatives: options.maxRepresentatives,
      estimateError: options.estimateError,
      maxBucketPairs: options.maxBucketPairs,
      keep: optionValue('keep', options.keep),
      against: options.against?.map(asDocument),
      measure,
    });
    const audit =
      options.audit === undefined
        ? undefined
        : await auditInMemory(result, corpus, params, { ...options, audit: options.audit, threshold });
    return { ...result, audit, backend: signer.description };
  } finally {
    signer.destroy();
    firstPass.workers.destroy();
    stageWorkers?.destroy();
  }
}
