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
import type { LshParams } from '../../bands/lshParams.js';
import { keepScore } from '../../text/keepPolicy.js';
import { ShardWriter, SHARD_FORMAT, type ShardMeta, type ShardTexts } from '../../formats/shards/shardFile.js';
import type { InputDocument, ReadOptions } from '../../io/documents.js';
import { listInputFiles, totalInputBytes } from '../../io/readDocuments.js';
import { shingleOptionsOf, weightsOf, type SignatureParams } from '../../signatures/params.js';
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
import { appendRows, slotColumns, type SignedRows } from './shardRows.js';
import { signUnitsInto } from './shardUnits.js';

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
  return withRunSigner(config, hooks, totalInputBytes(files), async (signer) => {
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
      // Uncompressed JSON Lines are read by the workers, as dedup reads them (shardUnits.ts); with a score field,
      // which needs each record here, they are read on this thread as other inputs are.
      if (source.units !== undefined && config.scoreField === undefined) {
        const run = { config, signer, hooks, lists: stored.lists, texts: stored.texts !== undefined };
        empty = await signUnitsInto(writer, source.units, run, progress);
        return;
      }
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
        empty += appendRows(writer, batchRows(batch, config, stored.lists), config);
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

/** A signed batch of documents read on this thread, as rows. */
function batchRows(batch: SignedBatch<InputDocument>, config: SignShardConfig, lists: boolean): SignedRows {
  const { documents, signatures, exactKeys, empty, sets } = batch;
  const field = config.scoreField;
  return {
    count: documents.length,
    id: (d, out) => out.addId(documents[d].id),
    position: (d) => documents[d].index,
    length: (d) => documents[d].text.length,
    score:
      field === undefined
        ? undefined
        : (d) => keepScore({ kind: 'field', field }, documents[d].text, documents[d].record).score,
    range: (d) => {
      const range = documents[d].range;
      return range === undefined ? undefined : { file: range.file!, start: range.start, bytes: range.bytes };
    },
    exactKeys: exactKeys!,
    empty,
    signatures,
    set: lists ? (d) => sets[d] : undefined,
  };
}
