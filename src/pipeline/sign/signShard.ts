/**
 * `gpudedup sign --shard I/N -o shard.parquet`: signs one slice of the input
 * for `gpudedup cluster`.
 *
 * With files, shard I reads only its pieces of the input (whole files, Parquet
 * row groups, byte ranges of JSON Lines cut at line ends: src/io/shardPlan.ts),
 * so N shards read the corpus about once in total; standard input, which
 * cannot be split, is streamed whole by every shard, which keeps the documents
 * at positions p mod N = I − 1 (shardSources.ts). Either way every document's
 * position orders it as in the whole input, and the metadata says how.
 */
import { bandKey } from '../../bands/bandKeys.js';
import type { LshParams } from '../../bands/lshParams.js';
import {
  type FullSlotBits,
  fromSignerWords,
  signatureMatrix,
  type SignatureMatrix,
} from '../../bands/signatureMatrix.js';
import { words64 } from '../../exact/exactKey.js';
import { keepScore } from '../../text/keepPolicy.js';
import { ShardWriter, SHARD_FORMAT, type ShardMeta, type ShardTexts } from '../../formats/shards/shardFile.js';
import type { InputDocument, ReadOptions } from '../../io/documents.js';
import { listInputFiles } from '../../io/readDocuments.js';
import { schemeOf, shingleOptionsOf, weightsOf, type SignatureParams } from '../../signatures/params.js';
import type { BackendChoice } from '../../firstPass/node/resolveBackend.js';
import { signDocuments, type SignedBatch } from '../../firstPass/signDocuments.js';
import { checkOutputs } from '../shared/outputChecks.js';
import { requireUniqueIds } from '../../exact/uniqueIds.js';
import {
  skippedInputCounter,
  SILENT_HOOKS,
  withProgress,
  withRunSigner,
  type DedupHooks,
  type RunSigner,
} from '../shared/config.js';
import { shardSource, type ShardSource } from './shardSources.js';

export interface ShardSlice {
  /** 0-based. */
  readonly index: number;
  readonly count: number;
}

export interface SignShardConfig {
  readonly inputs: readonly string[];
  readonly read: ReadOptions;
  readonly params: SignatureParams;
  readonly threshold: number;
  readonly lsh: LshParams;
  readonly shard: ShardSlice;
  readonly backend: BackendChoice;
  readonly threads?: number;
  readonly out: string;
  readonly batchSize?: number;
  /**
   * Make the shard ready for exact Jaccard in `cluster`: each document's text range (v3), where every input is an
   * uncompressed JSON Lines file, else (or with `lists`) its shingle set (the `shingles` column).
   */
  readonly storeSets?: boolean;
  /** With storeSets: the shingle lists, even where text ranges would do (the Spark job, `--against`, `--audit`). */
  readonly lists?: boolean;
  /** Store this field's numeric value as the `score` column, for `cluster --keep field:NAME`. */
  readonly scoreField?: string;
}

export interface SignShardSummary {
  readonly documents: number;
  readonly totalDocuments: number;
  readonly empty: number;
  readonly seconds: number;
  readonly backend: string;
  /** Bytes read from disk, and the input's bytes (undefined for standard input). */
  readonly bytesRead: number;
  readonly inputBytes: number | undefined;
  /** What the shard holds for exact Jaccard: shingle lists, text ranges, or nothing (`--verify estimate`). */
  readonly stored: 'lists' | 'texts' | 'none';
}

/** What a shard stores for `cluster`'s exact pass: lists, or the files its text ranges point into. */
interface StoredForExact {
  readonly lists: boolean;
  readonly texts?: ShardTexts;
}

/** Parses `I/N` (1 ≤ I ≤ N) into a 0-based slice. */
export function parseShardSlice(text: string): ShardSlice {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const i = match ? Number(match[1]) : NaN;
  const n = match ? Number(match[2]) : NaN;
  if (!(Number.isSafeInteger(i) && Number.isSafeInteger(n) && n >= 1 && i >= 1 && i <= n)) {
    throw new RangeError(`--shard must be I/N with 1 ≤ I ≤ N (e.g. 1/4), got "${text}"`);
  }
  return { index: i - 1, count: n };
}

export async function runSignShard(
  config: SignShardConfig,
  hooks: DedupHooks = SILENT_HOOKS,
): Promise<SignShardSummary> {
  const { slotBits } = config.params;
  if (slotBits !== 32 && slotBits !== 64)
    throw new RangeError(
      `--shard writes 32- or 64-bit slots (gpudedup cluster compares whole slots), not --slot-bits ${slotBits}`,
    );
  const files = await listInputFiles(config.inputs, hooks.note);
  if (config.out === '-') throw new RangeError('sign --shard -o -: a shard is a Parquet file; give a file name');
  await checkOutputs([{ flag: '-o', path: config.out }], files);
  const exact = config.storeSets === true;
  // An idf table is the run's (counted or loaded): `cluster` could not shingle the texts again with it.
  const idf = weightsOf(config.params) === 'idf';
  if (exact && idf && config.lists !== true)
    hooks.note('--weights idf: the shard stores shingle lists, not text ranges');
  const source = await shardSource(
    files,
    config.shard,
    config.read,
    hooks.note,
    exact && !idf && config.lists !== true,
  );
  const stored: StoredForExact = { lists: exact && source.texts === undefined, texts: source.texts };
  return withRunSigner(config, hooks, async (signer) => {
    const started = performance.now();
    const writer = ShardWriter.create(
      config.out,
      config.lsh,
      slotColumns(config.params),
      () => shardMeta(config, writer.documents, source, stored),
      undefined,
      { sets: stored.lists, texts: stored.texts !== undefined, score: config.scoreField !== undefined },
    );
    let empty: number;
    try {
      empty = await signInto(writer, source, config, signer, hooks, stored);
      await writer.commit();
    } catch (error) {
      await writer.abort();
      throw error;
    }
    const meta = source.meta();
    const seconds = (performance.now() - started) / 1000;
    const inputBytes = meta.ranges?.inputBytes ?? source.bytes;
    return {
      documents: writer.documents,
      totalDocuments: meta.totalDocuments,
      empty,
      seconds,
      backend: signer.signer.description,
      bytesRead: meta.bytesRead ?? 0,
      inputBytes,
      stored: stored.lists ? 'lists' : stored.texts !== undefined ? 'texts' : 'none',
    };
  });
}

/** Signs the shard's documents into `writer`, with a progress bar over its bytes; returns how many are empty. */
async function signInto(
  writer: ShardWriter,
  source: ShardSource,
  config: SignShardConfig,
  signer: RunSigner,
  hooks: DedupHooks,
  stored: StoredForExact,
): Promise<number> {
  let empty = 0;
  await withProgress(
    hooks,
    `signing shard ${config.shard.index + 1}/${config.shard.count}`,
    source.bytes,
    'bytes',
    async (progress) => {
      const skipped = skippedInputCounter(hooks, config.read);
      const read = { ...config.read, onInvalid: skipped.onInvalid, onBinary: skipped.onBinary };
      // Ids are checked unique among the documents this shard reads (all of them, on standard input).
      const documents = requireUniqueIds(source.documents(read, progress));
      const pipeline = {
        shingle: shingleOptionsOf(config.params),
        batchDocuments: config.batchSize,
        keepSets: stored.lists,
        exactKeys: true,
      };
      for await (const batch of signDocuments(documents, signer.firstPass, pipeline))
        empty += appendBatch(writer, batch, config, stored.lists);
    },
  );
  return empty;
}

function shardMeta(config: SignShardConfig, documents: number, source: ShardSource, stored: StoredForExact): ShardMeta {
  const { textField, idField, skipInvalid, strict } = config.read;
  const read = { textField, idField, skipInvalid, strict: strict === true };
  return {
    format: SHARD_FORMAT,
    params: config.params,
    lsh: config.lsh,
    threshold: config.threshold,
    shard: config.shard,
    documents,
    ...source.meta(),
    sets: stored.lists,
    ...(stored.texts === undefined ? {} : { texts: stored.texts }),
    scoreField: config.scoreField,
    read,
  };
}

/** The shard's slot columns: k, or SimHash's one fingerprint (`slot_0`, its 64 one-bit slots packed: shardFile.ts). */
function slotColumns(params: SignatureParams): number {
  return schemeOf(params) === 'simhash' ? 1 : params.k;
}

/**
 * A SimHash signature's fingerprint from its 64 one-bit slots (row d of the matrix), as a signed INT64. Only a
 * document without elements has other slots (all-ones), and that is an empty one (no token, no shingle; an idf
 * weight is at least 1), which the shard marks empty.
 */
function packedFingerprint(matrix: SignatureMatrix, d: number): bigint {
  const { k, slotBits, words } = matrix;
  let fingerprint = 0n;
  for (let i = k - 1; i >= 0; i--) {
    const low = slotBits === 64 ? words[(d * k + i) * 2] : words[d * k + i];
    fingerprint = (fingerprint << 1n) | BigInt(low & 1);
  }
  return BigInt.asIntN(64, fingerprint);
}

/** Rows of one signed batch; returns the number of empty documents in it. */
function appendBatch(
  writer: ShardWriter,
  batch: SignedBatch<InputDocument>,
  config: SignShardConfig,
  lists: boolean,
): number {
  const { k } = config.params;
  const slotBits = config.params.slotBits as FullSlotBits; // runSignShard refused the others
  const { bands } = config.lsh;
  const matrix = signatureMatrix(fromSignerWords(batch.signatures, slotBits), k, slotBits);
  // Band keys and slots as (lo, hi) words of signed INT64s, through BigInt64Array views: no BigInt per value.
  const bandKeys = new BigInt64Array(bands);
  const bandWords = new Uint32Array(bandKeys.buffer);
  const simhash = schemeOf(config.params) === 'simhash';
  const slots = new BigInt64Array(slotColumns(config.params));
  const slotWords = new Uint32Array(slots.buffer);
  // The workers' exact keys: the very keys dedup's exact pre-pass groups by.
  const exact = batch.exactKeys!;
  let empty = 0;
  batch.documents.forEach((doc, d) => {
    const isEmpty = batch.empty[d] === 1;
    if (isEmpty) empty++;
    if (isEmpty) bandWords.fill(0);
    else for (let j = 0; j < bands; j++) bandKey(matrix, d, j, config.lsh, bandWords, 2 * j);
    if (simhash) slots[0] = isEmpty ? -1n : packedFingerprint(matrix, d);
    else slotRow(matrix, d, slotWords);
    const score =
      config.scoreField === undefined
        ? undefined
        : keepScore({ kind: 'field', field: config.scoreField }, doc.text, doc.record).score;
    const e = 4 * d;
    writer.push(
      doc.id,
      doc.index,
      isEmpty ? null : [words64(exact[e], exact[e + 1]), words64(exact[e + 2], exact[e + 3])],
      doc.text.length,
      bandKeys,
      slots,
      lists ? batch.sets[d] : undefined,
      score,
      doc.range === undefined ? undefined : { file: doc.range.file!, start: doc.range.start, bytes: doc.range.bytes },
    );
  });
  return empty;
}

/** Row d's slots as INT64 words: a 64-bit slot's (lo, hi) as they are, a 32-bit slot's value unsigned (hi 0). */
function slotRow(matrix: SignatureMatrix, d: number, out: Uint32Array): void {
  const { k, slotBits, words } = matrix;
  if (slotBits === 64) out.set(words.subarray(2 * d * k, 2 * (d + 1) * k));
  else
    for (let i = 0; i < k; i++) {
      out[2 * i] = words[d * k + i];
      out[2 * i + 1] = 0;
    }
}
