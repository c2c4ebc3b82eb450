/**
 * Shard files of `gpudedup sign --shard I/N`: Parquet, one row per document of
 * the shard, read by `gpudedup cluster` through DuckDB or Spark.
 *
 * Columns (all INT64 but `id`; flat, so that the shared SQL of src/engines
 * needs no list functions, whose names differ between DuckDB and Spark):
 *
 * | column | content |
 * | --- | --- |
 * | `id` | the document id (STRING) |
 * | `position` | its global position in the whole input, 0-based |
 * | `exact_lo`, `exact_hi` | MurmurHash3_x86_128 of the normalized UTF-8 (the exact pre-pass's key), low and high 64
 * bits; null for an empty document |
 * | `length` | the text length in UTF-16 code units (`--keep longest`) |
 * | `band_0` … `band_{b−1}` | the 64-bit band keys of src/bands/bandKeys.ts (hi·2^32 + lo, as signed INT64); 0 for an
 * empty document |
 * | `slot_0` … `slot_{k−1}` | the signature (signed INT64 for 64-bit slots, the unsigned value for 32-bit slots;
 * all-ones when empty); SimHash (`--scheme simhash`): `slot_0` alone, the 64-bit fingerprint (bit i = slot i of its
 * 64 one-bit slots, as signed INT64; −1 when empty), compared by popcount of XOR |
 * | `score` | only when the metadata names a `scoreField`: that field's numeric value (DOUBLE; −∞ when missing), for
 * `--keep field:NAME` |
 * | `shingles` | only when the metadata says `sets`: the document's shingle set, LIST of INT64 (hi·2^32 + lo of each
 * 64-bit shingle hash, signed), empty for an empty document |
 * | `text_file`, `text_start`, `text_bytes` | only when the metadata has `texts` (v3): where the document's text lies,
 * file `texts.files[text_file]`, its JSON line's bytes [start, start + bytes): `cluster`'s exact pass reads and
 * shingles the margin documents again from there (src/engines/textPairs.ts) instead of reading lists; from v4 the
 * range may end with the line's end (\n, \r\n or \r: JSON whitespace, which the reader's parse skips) |
 *
 * v3 (issue 38): `sign --shard` stores text ranges, not lists, where every input is an uncompressed JSON Lines file
 * (about 0.35× the corpus instead of 1.5×); `--shard-lists` (and other inputs) still store the lists, which the Spark
 * job, `--against` and `--audit` need. v1 and v2 shards are read as they were.
 *
 * v4 (issue 38): uncompressed JSON Lines are read by the first pass's workers, as `dedup` reads them
 * (src/pipeline/sign/shardUnits.ts), and a document's range is the workers' line range, its line end included.
 *
 * Encodings (v2): random hashes do not compress, so the exact keys, bands and shingles are written PLAIN and
 * uncompressed (Snappy saved 5 % of the lists; sorted lists under DELTA_BINARY_PACKED 8 %), and no column carries
 * statistics. The slots keep a dictionary where a row group's values repeat (near duplicates share slots: a third
 * off), `length` and the text ranges too, `position` is DELTA_BINARY_PACKED. Since issue 38 every column is written
 * from typed arrays (flatColumns.ts, slotColumns.ts, listColumn.ts; hyparquet-writer only frames the file) and
 * nothing is Snappy-compressed: it saved 0 % of the slots' random bits and about 1 % of a shard in the ids, for a
 * sixth of the writing. Readers see the same values (the format stays v4).
 *
 * The shingle set is the one exact Jaccard measures in dedup (verification.ts,
 * exactJaccard over (lo, hi) pairs): whole 64-bit values, not their low 32
 * bits, since two shingles that differ only in the high word would otherwise
 * count as shared and change a pair's Jaccard, so the clusters would differ
 * from dedup's.
 *
 * The parameters are in the key-value metadata under `gpudedup.shard` (JSON, ShardMeta). Framed by hyparquet-writer
 * (pure JavaScript: the footer), written through one open file (fdWriter.ts) in a fresh temporary (temporaries.ts),
 * renamed when complete; a row group is buffered in typed arrays (rowGroup.ts). Kept apart from the formats branch's
 * Parquet writer on purpose, so the two can be reconciled.
 */
import { mkdirSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ParquetWriter, type SchemaElement } from 'hyparquet-writer';
import { fdWriter, type FdWriter } from './fdWriter.js';
import type { LshParams } from '../../bands/lshParams.js';
import type { ShardColumns, ShardMeta } from './shardMeta.js';
import { ShardRowGroup } from './rowGroup.js';
import { appendListColumn } from './listColumn.js';
import {
  appendDeltaInt64,
  appendOptionalInt64,
  appendPlainInt64,
  appendIdColumn,
  int64Words,
  startRowGroup,
} from './flatColumns.js';
import { appendScoreColumn, appendSlotColumn, copyWords } from './slotColumns.js';

export { setValues } from './listColumn.js';
import { forgetTemporary, removeTemporary, reserveTemporary } from '../files/temporaries.js';

export const SHARD_FORMAT = 'gpudedup-shard/v4';
/**
 * Formats `cluster` reads. v1 (before issue 38) has v2's columns, its lists unsorted and every column
 * Snappy-compressed with statistics; v2 has no text ranges; v3's ranges never hold a line's end: all read as v4 is.
 */
export const READABLE_SHARD_FORMATS: readonly string[] = [
  'gpudedup-shard/v1',
  'gpudedup-shard/v2',
  'gpudedup-shard/v3',
  SHARD_FORMAT,
];
export const SHARD_META_KEY = 'gpudedup.shard';

export type { ShardColumns, ShardMeta, ShardReading, ShardTexts } from './shardMeta.js';
export type { ShardRowGroup } from './rowGroup.js';

const TEXT_COLUMNS = ['text_file', 'text_start', 'text_bytes'];

export function shardColumnNames(lsh: LshParams, k: number): { bands: string[]; slots: string[] } {
  return {
    bands: Array.from({ length: lsh.bands }, (_, j) => `band_${j}`),
    slots: Array.from({ length: k }, (_, i) => `slot_${i}`),
  };
}

function shardSchema(lsh: LshParams, k: number, optional: ShardColumns): SchemaElement[] {
  const names = shardColumnNames(lsh, k);
  const int64 = (name: string, optional = false): SchemaElement => ({
    name,
    type: 'INT64',
    repetition_type: optional ? 'OPTIONAL' : 'REQUIRED',
  });
  const columns: SchemaElement[] = [
    { name: 'id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
    int64('position'),
    int64('exact_lo', true),
    int64('exact_hi', true),
    int64('length'),
    ...names.bands.map((n) => int64(n)),
    ...(optional.texts ? TEXT_COLUMNS.map((n) => int64(n)) : []),
    ...names.slots.map((n) => int64(n)),
  ];
  // The three-level LIST of the Parquet spec, which DuckDB and Spark read as a list of BIGINT.
  const list: SchemaElement[] = [
    { name: 'shingles', repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', type: 'INT64', repetition_type: 'REQUIRED' },
  ];
  if (optional.score) columns.push({ name: 'score', type: 'DOUBLE', repetition_type: 'REQUIRED' });
  if (optional.sets) columns.push(...list);
  return [{ name: 'root', num_children: columns.length - (optional.sets ? 2 : 0) }, ...columns];
}

export class ShardWriter {
  private readonly rows: ShardRowGroup;
  private written = 0;

  private constructor(
    readonly path: string,
    private readonly temp: string,
    private readonly file: FdWriter,
    private readonly writer: ParquetWriter,
    private readonly lsh: LshParams,
    private readonly k: number,
    private readonly rowGroup: number,
    private readonly optional: ShardColumns,
  ) {
    this.rows = new ShardRowGroup(lsh, k, rowGroup);
  }

  /**
   * Opens a fresh temporary beside `path` (temporaries.ts); the metadata is completed by `commit`. With optional
   * columns, `push` takes their values.
   */
  static create(
    path: string,
    lsh: LshParams,
    k: number,
    meta: () => ShardMeta,
    rowGroup = 8192,
    optional: ShardColumns = {},
  ): ShardWriter {
    mkdirSync(dirname(path), { recursive: true });
    const temp = reserveTemporary(path);
    const file = fdWriter(temp);
    const writer = new ParquetWriter({
      writer: file,
      schema: shardSchema(lsh, k, optional),
      createdBy: 'gpudedup',
      statistics: false,
    });
    const shard = new ShardWriter(path, temp, file, writer, lsh, k, rowGroup, optional);
    shard.meta = meta;
    return shard;
  }

  private meta: () => ShardMeta = () => {
    throw new Error('internal: shard metadata missing');
  };

  /**
   * Buffers a row (written a row group at a time). `exact`: the exact key as (`exact_lo`, `exact_hi`), or its four
   * words (lo, hi of each), or null for an empty document.
   */
  push(
    id: string,
    position: number,
    exact: readonly [bigint, bigint] | Uint32Array | null,
    length: number,
    bandKeys: BigInt64Array,
    slots: BigInt64Array,
    set?: Uint32Array,
    score?: number,
    text?: { readonly file: number; readonly start: number; readonly bytes: number },
  ): void {
    const r = this.rows;
    const at = r.count;
    r.addId(id);
    r.position[at] = position;
    if (exact !== null) {
      r.hasExact[at] = 1;
      if (exact instanceof Uint32Array) r.exactWords.set(exact.subarray(0, 4), 4 * at);
      else r.exactWords.set(new Uint32Array(BigInt64Array.from(exact).buffer), 4 * at);
    }
    r.length[at] = length;
    // Copied as (lo, hi) words: reading a BigInt64Array's element makes a BigInt, a garbage object per value.
    copyWords(bandKeys, r.bandWords, at);
    copyWords(slots, r.slotWords, at);
    if (this.optional.sets) {
      if (set === undefined) throw new Error('internal: this shard stores shingle sets: push needs one');
      r.shingles.push(set);
    }
    if (this.optional.score) {
      if (score === undefined) throw new Error('internal: this shard stores keep scores: push needs one');
      r.score[at] = score;
    }
    if (this.optional.texts) {
      if (text === undefined) throw new Error(`internal: this shard stores text ranges, and ${id} has none`);
      r.textFile[at] = text.file;
      r.textStart[at] = text.start;
      r.textBytes[at] = text.bytes;
    }
    this.rowFilled();
  }

  /**
   * The row group being buffered, for a caller that writes a row's columns itself (no object a row: appendRows): its
   * row `count` (id first, then every column the shard has), then rowFilled.
   */
  get buffer(): ShardRowGroup {
    return this.rows;
  }

  /** The optional columns this shard has, which a row written through `buffer` must fill. */
  get columns(): ShardColumns {
    return this.optional;
  }

  /** Row `buffer.count` is complete: counts it, and writes the row group when full. */
  rowFilled(): void {
    if (++this.rows.count === this.rowGroup) this.flush();
  }

  get documents(): number {
    return this.written + this.rows.count;
  }

  /** Writes the buffered rows as a row group, every column from its typed arrays (flatColumns.ts, slotColumns.ts). */
  private flush(): void {
    const [r, w] = [this.rows, this.writer];
    const n = r.count;
    if (n === 0) return;
    const names = shardColumnNames(this.lsh, this.k);
    startRowGroup(w, n);
    appendIdColumn(w, 'id', r.idBytes.subarray(0, r.idEnd), n);
    appendDeltaInt64(w, 'position', r.position, n);
    appendOptionalInt64(w, 'exact_lo', r.exactWords, 0, r.hasExact, n);
    appendOptionalInt64(w, 'exact_hi', r.exactWords, 2, r.hasExact, n);
    appendSlotColumn(w, 'length', int64Words(r.length, n), n);
    names.bands.forEach((name, j) => appendPlainInt64(w, name, r.bandWords[j], n));
    if (this.optional.texts)
      for (const [i, name] of TEXT_COLUMNS.entries())
        appendSlotColumn(w, name, int64Words([r.textFile, r.textStart, r.textBytes][i], n), n);
    names.slots.forEach((name, i) => appendSlotColumn(w, name, r.slotWords[i], n));
    if (this.optional.score) appendScoreColumn(w, r.score.subarray(0, n));
    if (this.optional.sets) appendListColumn(w, r.shingles);
    this.written += n;
    r.reset(); // its arrays kept for the next row group: the pages copied them
  }

  async commit(): Promise<void> {
    this.flush();
    this.writer.kvMetadata = [{ key: SHARD_META_KEY, value: JSON.stringify(this.meta()) }];
    await this.writer.finish();
    await rename(this.temp, this.path);
    forgetTemporary(this.temp);
  }

  async abort(): Promise<void> {
    this.file.close();
    removeTemporary(this.temp);
  }
}
