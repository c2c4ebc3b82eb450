/**
 * The exact pass of `cluster` on shards that store where each text lies instead of its shingle list (shard format v3,
 * src/formats/shards/shardFile.ts): the engine hands the margin pairs over with both documents' byte ranges, and
 * this reads each document's JSON line again from the signed file, takes its text field, shingles it with dedup's
 * code (shingleDocument: the sets the first pass keeps, so the lists a v2 shard would hold) and decides each pair as
 * decidePair does, exact similarity ≥ threshold (exactJaccard, or exactAngular for SimHash shards). The decisions
 * are dedup's, so the clusters are too.
 */
import { closeSync, openSync, statSync } from 'node:fs';
import type { ShardTexts } from '../formats/shards/shardFile.js';
import { InputError, type ReadOptions } from '../io/documents.js';
import { parseJsonLine } from '../io/jsonLines.js';
import { readUpTo } from '../io/readUpTo.js';
import { shingleDocument, type ShingleOptions } from '../shingles/shingles.js';
import { exactSimilarityOf } from '../verify/exactJaccard.js';
import type { SqlPairRule } from './sqlParts.js';

/** Pairs as the host step's SQL gives them (sqlParts.ts): positions, and each side's file, first byte and bytes. */
export interface TextPairRows {
  readonly l: readonly number[];
  readonly r: readonly number[];
  readonly xf: readonly number[];
  readonly xs: readonly number[];
  readonly xb: readonly number[];
  readonly yf: readonly number[];
  readonly ys: readonly number[];
  readonly yb: readonly number[];
}

/** Decides pairs under a rule: 1 where the exact measure passes. */
export type TextPairDecider = (pairs: TextPairRows, rule: SqlPairRule) => Promise<Uint8Array>;

export interface TextSource {
  readonly texts: ShardTexts;
  readonly shingle: ShingleOptions;
  readonly read: Pick<ReadOptions, 'textField' | 'idField'>;
}

/**
 * The files' states against the ones signed: one line naming the first that is missing or changed (size or
 * modification time), or undefined when all are as signed.
 */
export function changedTextFile(texts: ShardTexts): string | undefined {
  for (const file of texts.files) {
    let now;
    try {
      now = statSync(file.path);
    } catch {
      return `${file.path} is missing`;
    }
    if (now.size !== file.size || now.mtimeMs !== file.mtimeMs)
      return `${file.path} changed since the shards were signed (${file.size} bytes then, ${now.size} now; modified ${new Date(now.mtimeMs).toISOString()})`;
  }
  return undefined;
}

export function textPairDecider(shingle: RangeShingler): TextPairDecider {
  // Kept across calls: the representative check's rounds meet the margin's documents again.
  const sets = new SetsByPosition(shingle);
  return async (pairs, rule) => {
    for (let i = 0; i < pairs.l.length; i++) {
      sets.want(pairs.l[i], pairs.xf[i], pairs.xs[i], pairs.xb[i]);
      sets.want(pairs.r[i], pairs.yf[i], pairs.ys[i], pairs.yb[i]);
    }
    await sets.read();
    const similarity = exactSimilarityOf(rule.simhash === undefined ? 'jaccard' : 'angular');
    const passed = new Uint8Array(pairs.l.length);
    for (let i = 0; i < passed.length; i++)
      passed[i] = similarity(sets.of(pairs.l[i]), sets.of(pairs.r[i])) >= rule.threshold ? 1 : 0;
    return passed;
  };
}

/** Where texts lie: file index, first byte and bytes of each, in the order read. */
export interface TextRanges {
  readonly file: Int32Array;
  readonly start: Float64Array;
  readonly bytes: Float64Array;
}

/** Shingle sets packed end to end: set i is words[offsets[i] .. offsets[i + 1]). */
export interface PackedSets {
  readonly words: Uint32Array;
  readonly offsets: Uint32Array;
}

/**
 * Reads each range's JSON line (front to back in each file when the ranges are in file order), takes its text and
 * shingles it: on a worker thread (textWorker.ts) or this one.
 */
export function shingleRanges(source: TextSource, ranges: TextRanges): PackedSets {
  const sets: Uint32Array[] = [];
  const handles = new Map<number, number>();
  let buffer = Buffer.alloc(1 << 16);
  try {
    for (let i = 0; i < ranges.file.length; i++) {
      const [file, start, bytes] = [ranges.file[i], ranges.start[i], ranges.bytes[i]];
      const { path } = source.texts.files[file];
      let fd = handles.get(file);
      if (fd === undefined) handles.set(file, (fd = openSync(path, 'r')));
      if (buffer.length < bytes) buffer = Buffer.alloc(Math.max(bytes, 2 * buffer.length));
      const done = readUpTo(fd, buffer, start, bytes);
      sets.push(shingleDocument(textOf(source, buffer.toString('utf8', 0, done), path, start), source.shingle));
    }
  } finally {
    for (const fd of handles.values()) closeSync(fd);
  }
  const offsets = new Uint32Array(sets.length + 1);
  sets.forEach((set, i) => (offsets[i + 1] = offsets[i] + set.length));
  const words = new Uint32Array(offsets[sets.length]);
  sets.forEach((set, i) => words.set(set, offsets[i]));
  return { words, offsets };
}

function textOf(source: TextSource, line: string, path: string, start: number): string {
  const parsed = parseJsonLine(line, path, 0, false, source.read);
  if (parsed instanceof InputError)
    throw new Error(
      `${path}, byte ${start}: not the JSON line the shards were signed from (${parsed.message}): sign them again`,
    );
  return parsed.text;
}

/**
 * Shingles ranges, in parallel where it can: the runner of shingleRanges (textWorkers.ts). The sets come back as the
 * runs' packed parts, in range order, not joined: at 1 M they hold gigabytes, and one more copy was 7 s of page faults.
 */
export type RangeShingler = (ranges: TextRanges) => Promise<readonly PackedSets[]>;

/** The shingle sets of the documents pairs need, each read and shingled once, in file order. */
class SetsByPosition {
  private readonly wanted = new Map<number, { file: number; start: number; bytes: number }>();
  private readonly sets = new Map<number, Uint32Array>();

  constructor(private readonly shingle: RangeShingler) {}

  want(position: number, file: number, start: number, bytes: number): void {
    if (!this.sets.has(position) && !this.wanted.has(position)) this.wanted.set(position, { file, start, bytes });
  }

  of(position: number): Uint32Array {
    const set = this.sets.get(position);
    if (set === undefined) throw new Error(`internal: no text read for position ${position}`);
    return set;
  }

  /** Reads every wanted text by its range, front to back in each file, and shingles it. */
  async read(): Promise<void> {
    const order = [...this.wanted.entries()].sort(([, a], [, b]) => a.file - b.file || a.start - b.start);
    const ranges = {
      file: Int32Array.from(order, ([, r]) => r.file),
      start: Float64Array.from(order, ([, r]) => r.start),
      bytes: Float64Array.from(order, ([, r]) => r.bytes),
    };
    let i = 0;
    for (const { words, offsets } of await this.shingle(ranges))
      for (let set = 0; set + 1 < offsets.length; set++, i++)
        this.sets.set(order[i][0], words.subarray(offsets[set], offsets[set + 1]));
    if (i !== order.length) throw new Error(`internal: ${order.length} texts asked for, ${i} shingled`);
    this.wanted.clear();
  }
}
