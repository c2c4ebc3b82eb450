// The declarations name WebGPU's types (GPUDevice, GPUAdapter): a consumer gets them from the `webgpu`
// dependency, which imports @webgpu/types itself, so compiling against ours needs no devDependency.
/// <reference types="webgpu" preserve="true" />
/**
 * gpudedup as a library (Node). The front door is src/api.ts: `minhash`,
 * `createMinHasher` and `dedup`. The stages, in order — text → shingles →
 * signatures → bands → clusters — and the passes over files (src/pipeline)
 * are exported for callers that need one of them alone. Browser code imports
 * the browser-safe modules directly (see web/), never this file's Node-only
 * backend resolution.
 */
export {
  minhash,
  createMinHasher,
  dedup,
  type MinHasher,
  type MinHashOptions,
  type Signatures,
  type DedupOptions,
  type DedupResult,
} from './api.js';
export { substrings, type SubstringsOptions } from './substringsApi.js';
export {
  substringDocuments,
  type SubstringsResult,
  type EditedDocument,
  type SubstringSpan,
} from './substrings/substringDocuments.js';
export { OPTIONS, optionError, type OptionName, type OptionSpec } from './options.js';

export { normalizeText, tokenize, DEFAULT_NORMALIZE, type NormalizeOptions } from './text/normalize.js';
export {
  shingleDocument,
  chooseMode,
  DEFAULT_SHINGLE,
  type ShingleMode,
  type ShingleOptions,
} from './shingles/shingles.js';
export { pack, type ShingleBatch } from './shingles/shingleBatch.js';
export {
  IDF_RULE,
  IDF_W_MAX,
  idfWeight,
  registerIdfTable,
  type IdfShingling,
  type IdfTable,
} from './shingles/idfWeights.js';
export { DfCounter, decodeIdfTable, encodeIdfTable } from './shingles/idfTable.js';
export { mulAddModP, reduce64ModP } from './math/mersenne61.js';
export { parseU64, toHex64, toDecimal64, type U64 } from './math/u64.js';
export { makeHashFamily, splitmix64, type HashFamily } from './signatures/hashFamily.js';
export {
  makeParams,
  hashFamilyOf,
  shingleOptionsOf,
  paramDifferences,
  schemeOf,
  SCHEME,
  SCHEMES,
  type SchemeName,
  type SignatureParams,
  type SignatureOptions,
} from './signatures/params.js';
export { EMPTY_SLOT_WORD, type SignerBackend, type BackendKind } from './signatures/backend.js';
export { CpuSigner, signBatchOnCpu } from './signatures/cpuSigner.js';
export { FallbackSigner } from './signatures/fallbackSigner.js';
export {
  resolveBackend,
  openSigner,
  type BackendChoice,
  type ResolvedBackend,
  type NodeBackendOptions,
} from './firstPass/node/resolveBackend.js';
export { ParallelCpuSigner } from './signatures/cpuParallel.js';
export { WasmSigner } from './signatures/wasmSigner.js';
export {
  signDocuments,
  type SignedBatch,
  type PipelineOptions,
  type PipelineTimings,
} from './firstPass/signDocuments.js';
export {
  optimalParams,
  candidateProbability,
  DEFAULT_WEIGHTS,
  DEDUP_WEIGHTS,
  type LshParams,
  type OptimizerWeights,
} from './bands/lshParams.js';
export {
  dedupDocuments,
  type DedupDocumentsOptions,
  type DedupDocumentsResult,
  type InMemoryDocument,
} from './dedup/dedupDocuments.js';
export { dedupSigned, type DedupSettings, type SignedCorpus, type SignedDedup } from './dedup/dedupSigned.js';
export type { KeepPolicy } from './text/keepPolicy.js';
export { listInputFiles, readDocuments, type InputFile } from './io/readDocuments.js';
export { InputError, type InputDocument, type ReadOptions } from './io/documents.js';
export { SignatureWriter, readSignatureFile, type SignatureFile } from './formats/shards/signatureFile.js';
export { sidecarPath } from './formats/shards/signatureSidecar.js';
export { readNpy, NpyWriter, type NpyArray } from './formats/shards/npy.js';
export { runDedup, type DedupOutcome } from './pipeline/dedup/dedup.js';
export { dedupJob, type DedupOutputs } from './pipeline/dedup/dedupJob.js';
export { runSign, type SignConfig, type SignSummary } from './pipeline/sign/sign.js';
export type { DedupConfig, DedupHooks } from './pipeline/shared/config.js';
export {
  createIndex,
  openIndex,
  type DiskIndex,
  type CompactResult,
  type IndexOptions,
  type OpenOptions,
} from './lshIndex/diskIndex.js';
export { createMemoryIndex, type MemoryIndex, type MemoryIndexOptions } from './lshIndex/memoryIndex.js';
export { inlineIndexSigner } from './lshIndex/signing.js';
export {
  openIndexSnapshot,
  type IndexSnapshot,
  type ReadIndexFile,
  type SnapshotOptions,
} from './lshIndex/snapshot.js';
export {
  resolveParameters as resolveIndexParameters,
  parameterDifferences as indexParameterDifferences,
  type IndexParameters,
} from './lshIndex/options.js';
export { IndexLockedError } from './lshIndex/lock.js';
export {
  CorruptIndexError,
  IndexFormatError,
  IndexIdError,
  IndexParameterError,
  type IndexIdProblem,
} from './lshIndex/errors.js';
export type {
  DedupIndex,
  IndexDocument,
  IndexMatch,
  QueryResult,
  QueryOptions,
  AddOptions,
  AddDecision,
  AddResult,
  RemoveResult,
  IndexStats,
} from './lshIndex/types.js';
export {
  ngramOverlaps,
  decontaminateDocuments,
  NgramDecontaminator,
  cutSpans,
  type NgramOverlap,
  type NgramOverlapOptions,
  type DecontaminationOptions,
  type DecontaminationResult,
  type ContaminatedSpan,
} from './substrings/ngramDecontamination.js';
export { tokenOffsets, type TokenOffsets } from './text/tokenOffsets.js';
export {
  decontaminate,
  decontaminatePreflight,
  type DecontaminateConfig,
  type DecontaminateSummary,
} from './pipeline/substrings/decontaminate.js';
