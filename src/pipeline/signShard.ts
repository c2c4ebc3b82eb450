/**
 * `gpudedup sign --shard I/N -o shard.parquet`: signs one slice of the input
 * for `gpudedup cluster`.
 *
 * Slicing is by global document position modulo N: shard I (1-based) holds the
 * documents at positions p with p mod N = I − 1. Each shard therefore streams
 * the whole input (reading and parsing is cheap next to shingling and
 * signing) but shingles and signs only its own documents, and knows each one's
 * global position exactly — without first counting the documents of earlier
 * files, which contiguous ranges would need, and for standard input too.
 */
import { bandKey } from '../bands/bandKeys.js';
import type { LshParams } from '../bands/lshParams.js';
import { type FullSlotBits, fromSignerWords, signatureMatrix } from '../bands/signatureMatrix.js';
import { exactKey, words64 } from '../clusters/exactKey.js';
import { keepScore } from '../clusters/keepPolicy.js';
import { ShardWriter, SHARD_FORMAT, type ShardMeta } from '../formats/shardFile.js';
import type { InputDocument, ReadOptions } from '../io/documents.js';
import { listInputFiles, readDocuments, totalInputBytes } from '../io/readDocuments.js';
import { shingleOptionsOf, type SignatureParams } from '../signatures/params.js';
import type { BackendChoice } from '../signatures/resolveBackend.js';
import { signDocuments, type SignedBatch } from '../signatures/signDocuments.js';
import { normalizedForExactMatch } from '../text/normalize.js';
import { checkOutputs } from './outputChecks.js';
import { requireUniqueIds } from '../firstPass/uniqueIds.js';
import { skippedInputCounter, SILENT_HOOKS, withProgress, withRunSigner, type DedupHooks, type StageProgress } from './config.js';

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
  /** Store each document's shingle set (the `shingles` column) for exact Jaccard in `cluster`. */
  readonly storeSets?: boolean;
  /** Store this field's numeric value as the `score` column, for `cluster --keep field:NAME`. */
  readonly scoreField?: string;
}

export interface SignShardSummary {
  readonly documents: number;
  readonly totalDocuments: number;
  readonly empty: number;
  readonly seconds: number;
  readonly backend: string;
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

export async function runSignShard(config: SignShardConfig, hooks: DedupHooks = SILENT_HOOKS): Promise<SignShardSummary> {
  const { slotBits } = config.params;
  if (slotBits !== 32 && slotBits !== 64) throw new RangeError(`--shard writes 32- or 64-bit slots (gpudedup cluster compares whole slots), not --slot-bits ${slotBits}`);
  const files = await listInputFiles(config.inputs, hooks.note);
  if (config.out === '-') throw new RangeError('sign --shard -o -: a shard is a Parquet file; give a file name');
  await checkOutputs([{ flag: '-o', path: config.out }], files);
  return withRunSigner(config, hooks, async (signer) => {
    const started = performance.now();
    const counts = { total: 0, empty: 0 };
    const writer = ShardWriter.create(config.out, config.lsh, config.params.k, () => shardMeta(config, writer.documents, counts.total), undefined, {
      sets: config.storeSets === true,
      score: config.scoreField !== undefined,
    });
    try {
      await withProgress(hooks, `signing shard ${config.shard.index + 1}/${config.shard.count}`, totalInputBytes(files), 'bytes', async (progress) => {
        const skipped = skippedInputCounter(hooks, config.read);
        const read = { ...config.read, onInvalid: skipped.onInvalid, onBinary: skipped.onBinary };
        // Every shard reads the whole input, so every shard checks that all ids are unique.
        const documents = sliceOf(requireUniqueIds(readDocuments(files, read)), config.shard, counts, progress);
        const pipeline = { shingle: shingleOptionsOf(config.params), batchDocuments: config.batchSize, shingler: signer.shingler };
        for await (const batch of signDocuments(documents, signer.signer, pipeline)) counts.empty += appendBatch(writer, batch, config);
      });
      await writer.commit();
    } catch (error) {
      await writer.abort();
      throw error;
    }
    return { documents: writer.documents, totalDocuments: counts.total, empty: counts.empty, seconds: (performance.now() - started) / 1000, backend: signer.signer.description };
  });
}

function shardMeta(config: SignShardConfig, documents: number, totalDocuments: number): ShardMeta {
  return { format: SHARD_FORMAT, params: config.params, lsh: config.lsh, threshold: config.threshold, shard: config.shard, documents, totalDocuments, sets: config.storeSets === true, scoreField: config.scoreField };
}

/** The shard's documents, counting every document of the input on the way. */
async function* sliceOf(
  documents: AsyncIterable<InputDocument>,
  shard: ShardSlice,
  counts: { total: number },
  progress: StageProgress,
): AsyncGenerator<InputDocument> {
  for await (const doc of documents) {
    counts.total = doc.index + 1;
    if ((doc.index & 1023) === 0) progress.update(doc.index);
    if (doc.index % shard.count === shard.index) yield doc;
  }
}

/** Rows of one signed batch; returns the number of empty documents in it. */
function appendBatch(writer: ShardWriter, batch: SignedBatch<InputDocument>, config: SignShardConfig): number {
  const { k } = config.params;
  const slotBits = config.params.slotBits as FullSlotBits; // runSignShard refused the others
  const { bands, rows } = config.lsh;
  const matrix = signatureMatrix(fromSignerWords(batch.signatures, slotBits), k, slotBits);
  const key = new Uint32Array(2);
  const bandKeys = new BigInt64Array(bands);
  const slots = new BigInt64Array(k);
  let empty = 0;
  batch.documents.forEach((doc, d) => {
    const normalized = normalizedForExactMatch(doc.text, config.params.normalize);
    const isEmpty = normalized === '';
    if (isEmpty) empty++;
    for (let j = 0; j < bands; j++) {
      if (isEmpty) bandKeys[j] = 0n;
      else {
        bandKey(matrix, d, j, rows, key, 0);
        bandKeys[j] = words64(key[0], key[1]);
      }
    }
    const words = matrix.words;
    for (let i = 0; i < k; i++) slots[i] = slotBits === 64 ? words64(words[(d * k + i) * 2], words[(d * k + i) * 2 + 1]) : BigInt(words[d * k + i] >>> 0);
    const score = config.scoreField === undefined ? undefined : keepScore({ kind: 'field', field: config.scoreField }, doc.text, doc.record).score;
    writer.push(doc.id, doc.index, isEmpty ? null : exactKey(normalized), doc.text.length, bandKeys, slots, batch.sets[d], score);
  });
  return empty;
}
