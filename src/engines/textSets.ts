/**
 * The exact pass's two kinds of work on the texts (textPairs.ts), as a worker thread does them (textWorker.ts) or
 * this one: reading each range's JSON line again, taking its text and shingling it with dedup's code into packed
 * sets in shared memory; and deciding pairs of those sets, exact similarity ≥ threshold, as decidePair does.
 */
import { closeSync, openSync } from 'node:fs';
import type { ShardTexts } from '../formats/shards/shardFile.js';
import { InputError, type ReadOptions } from '../io/documents.js';
import { parseJsonLine } from '../io/jsonLines.js';
import { readUpTo } from '../io/readUpTo.js';
import { shingleDocument, type ShingleOptions } from '../shingles/shingles.js';
import { exactSimilarityOf, type SetMeasure } from '../verify/exactJaccard.js';

export interface TextSource {
  readonly texts: ShardTexts;
  readonly shingle: ShingleOptions;
  readonly read: Pick<ReadOptions, 'textField' | 'idField'>;
}

/** Where texts lie: file index, first byte and bytes of each, in the order read. */
export interface TextRanges {
  readonly file: Int32Array;
  readonly start: Float64Array;
  readonly bytes: Float64Array;
}

/** Shingle sets packed end to end: set i is words[offsets[i] .. offsets[i + 1]) (words in shared memory). */
export interface PackedSets {
  readonly words: Uint32Array;
  readonly offsets: Uint32Array;
}

/** Pairs of sets, each set named by its number across a run's parts (the parts' sets counted in order). */
export interface SetPairs {
  readonly a: Uint32Array;
  readonly b: Uint32Array;
}

/** What a pair must reach: its exact similarity under `measure` ≥ `threshold`. */
export interface SetRule {
  readonly measure: SetMeasure;
  readonly threshold: number;
}

/** Words a shared part holds at least: sets are written where they are made, no copy at the end. */
const PART_WORDS = 1 << 22;

/**
 * Reads each range's JSON line (front to back in each file when the ranges are in file order), takes its text and
 * shingles it into parts in shared memory of at least `partWords` words, in range order.
 */
export function shingleRanges(source: TextSource, ranges: TextRanges, partWords = PART_WORDS): PackedSets[] {
  const packer = new SharedPacker(partWords);
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
      packer.add(shingleDocument(textOf(source, buffer.toString('utf8', 0, done), path, start), source.shingle));
    }
  } finally {
    for (const fd of handles.values()) closeSync(fd);
  }
  return packer.finish();
}

function textOf(source: TextSource, line: string, path: string, start: number): string {
  const parsed = parseJsonLine(line, path, 0, false, source.read);
  if (parsed instanceof InputError)
    throw new Error(
      `${path}, byte ${start}: not the JSON line the shards were signed from (${parsed.message}): sign them again`,
    );
  return parsed.text;
}

/** Sets appended into shared parts of at least PART_WORDS words; a part's offsets are copied out when it is full. */
class SharedPacker {
  private readonly done: PackedSets[] = [];
  private words: Uint32Array = new Uint32Array(0);
  private offsets: number[] = [0];

  constructor(private readonly partWords: number) {}

  add(set: Uint32Array): void {
    const end = this.offsets[this.offsets.length - 1];
    if (end + set.length > this.words.length) {
      this.close();
      this.words = new Uint32Array(new SharedArrayBuffer(4 * Math.max(this.partWords, set.length)));
      this.offsets = [0];
    }
    this.words.set(set, this.offsets[this.offsets.length - 1]);
    this.offsets.push(this.offsets[this.offsets.length - 1] + set.length);
  }

  finish(): PackedSets[] {
    this.close();
    return this.done;
  }

  private close(): void {
    if (this.offsets.length > 1) this.done.push({ words: this.words, offsets: Uint32Array.from(this.offsets) });
  }
}

/** Sets numbered across parts: set g is part p's set g − first[p], p the last part with first[p] ≤ g. */
export class SetsAcross {
  private readonly first: number[] = [];
  private count = 0;

  constructor(readonly parts: readonly PackedSets[]) {
    for (const part of parts) {
      this.first.push(this.count);
      this.count += part.offsets.length - 1;
    }
  }

  get size(): number {
    return this.count;
  }

  set(g: number): Uint32Array {
    if (!(g >= 0 && g < this.count)) throw new Error(`internal: no set ${g} of ${this.count}`);
    let [low, high] = [0, this.first.length - 1];
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.first[middle] <= g) low = middle;
      else high = middle - 1;
    }
    const { words, offsets } = this.parts[low];
    const i = g - this.first[low];
    return words.subarray(offsets[i], offsets[i + 1]);
  }
}

/** 1 where the pair (a[i], b[i]) of sets across `parts` passes the rule, as decidePair decides it exactly. */
export function decideSetPairs(parts: readonly PackedSets[], pairs: SetPairs, rule: SetRule): Uint8Array {
  const sets = new SetsAcross(parts);
  const similarity = exactSimilarityOf(rule.measure);
  const passed = new Uint8Array(pairs.a.length);
  for (let i = 0; i < passed.length; i++)
    passed[i] = similarity(sets.set(pairs.a[i]), sets.set(pairs.b[i])) >= rule.threshold ? 1 : 0;
  return passed;
}
