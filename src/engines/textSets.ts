/**
 * The exact pass's two kinds of work on the texts (textPairs.ts), as a worker thread does them (textWorker.ts) or
 * this one: reading each range's JSON line again, taking its text and shingling it with dedup's code into packed
 * sets in shared memory; and deciding pairs of those sets, exact similarity ≥ threshold, as decidePair does.
 */
import { closeSync, openSync } from 'node:fs';
import { SetArena } from '../firstPass/sharedSets.js';
import { FilePacker, FileSetReader, type FileSets } from './setFiles.js';
import { kernelLines, LineStatus, R, shingleKernelSetup, type KernelSetup } from '../firstPass/wasm/unitKernel.js';
import type { ShardTexts } from '../formats/shards/shardFile.js';
import { InputError, type ReadOptions } from '../io/documents.js';
import { parseJsonLine } from '../io/jsonLines.js';
import { readUpTo } from '../readUpTo.js';
import { grown } from '../typedArrays.js';
import { shingleDocument, type ShingleOptions } from '../shingles/shingles.js';
import { exactSimilarityOf, jaccardWith, type SetMeasure } from '../verify/exactJaccard.js';

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
export interface SharedPackedSets {
  readonly words: Uint32Array;
  readonly offsets: Uint32Array;
}

/** A part of the sets: in shared memory, or in a file (past the host's memory share: setFiles.ts). */
export type PackedSets = SharedPackedSets | FileSets;

/** Sets in a part. */
export const setsIn = (part: PackedSets): number => part.offsets.length - 1;

/** Bytes of memory a part holds (a file part none). */
export const heldBytes = (part: PackedSets): number => ('words' in part ? part.words.byteLength : 0);

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
 * shingles it into parts in shared memory of at least `partWords` words, in range order; with `spill`, into that file
 * instead (one part).
 */
export function shingleRanges(
  source: TextSource,
  ranges: TextRanges,
  partWords = PART_WORDS,
  unitBytes = UNIT_BYTES,
  spill?: string,
): PackedSets[] {
  const packer = spill === undefined ? new SharedPacker(partWords) : new FilePacker(spill);
  const reader = new BlockReader(source, ranges);
  const byJs = (i: number): Uint32Array => shingleDocument(textOf(source, reader.line(i), ranges, i), source.shingle);
  try {
    const kernel = shingleKernelSetup(source.shingle, source.read);
    if (kernel === undefined) for (let i = 0; i < ranges.file.length; i++) packer.add(byJs(i));
    else
      for (let i = 0; i < ranges.file.length; )
        i = shingleUnit(kernel, reader, i, unitBytes, (set) => packer.add(set), byJs);
  } finally {
    reader.close();
  }
  return packer.finish();
}

/** The wanted lines' bytes a kernel call takes at most (a longer line goes alone): 28 bytes of its memory a byte. */
const UNIT_BYTES = 1 << 20;
const LF = 0x0a;
let unitBuffer = new Uint8Array(0);

/**
 * Ranges from `first` on, up to `unitBytes` of them, shingled as dedup's first pass shingles JSON lines: their bytes
 * end to end (a line end added where a range has none), one line a range, walked by the document kernel; a line the
 * kernel leaves to JavaScript goes `byJs`. Gives each set to `add` in range order; returns the next range.
 */
function shingleUnit(
  kernel: KernelSetup,
  reader: BlockReader,
  first: number,
  unitBytes: number,
  add: (set: Uint32Array) => void,
  byJs: (i: number) => Uint32Array,
): number {
  let [end, used] = [first, 0];
  for (; end < reader.count && (end === first || used + reader.length(end) + 1 <= unitBytes); end++) {
    const line = reader.bytes(end);
    if (unitBuffer.length < used + line.length + 1)
      unitBuffer = grown(unitBuffer, Math.max(2 * unitBuffer.length, used + line.length + 1, unitBytes + 1));
    unitBuffer.set(line, used);
    used += line.length;
    if (line.length === 0 || line[line.length - 1] !== LF) unitBuffer[used++] = LF;
  }
  let next = first;
  kernelLines(unitBuffer.subarray(0, used), 1, false, kernel, '', (records, width) => {
    for (let r = 0; r < records.count; r++) {
      const at = r * width;
      const i = first + records.words[at + R.LINE] - 1;
      while (next < i) add(byJs(next++)); // a line with no record (blank): JavaScript says why
      if (records.words[at + R.STATUS] !== LineStatus.Document) add(byJs(i));
      else {
        const from = records.words[at + R.SH_START];
        add(records.shingles.subarray(2 * from, 2 * (from + records.words[at + R.SH_COUNT])));
      }
      next = i + 1;
    }
  });
  while (next < end) add(byJs(next++)); // the kernel did not run (or stopped short): JavaScript reads the rest
  return end;
}

/** Ranges nearer than this to the one before (in the same file) are read with it, in one block. */
const GAP_BYTES = 1 << 14;
/** A block's bytes at most, unless one range is longer. */
const BLOCK_BYTES = 1 << 20;

/**
 * Each range's bytes as text, read in blocks: a range and the ones after it that lie near it (file order) in one
 * read, so a dense run of ranges costs a few large reads rather than one each.
 */
class BlockReader {
  private readonly handles = new Map<number, number>();
  private buffer = Buffer.alloc(BLOCK_BYTES);
  /** The block: ranges [first, last) read, range `first` at byte 0, `done` bytes in all. */
  private first = 0;
  private last = 0;
  private done = 0;

  constructor(
    private readonly source: TextSource,
    private readonly ranges: TextRanges,
  ) {}

  get count(): number {
    return this.ranges.file.length;
  }

  /** Range i's bytes as recorded. */
  length(i: number): number {
    return this.ranges.bytes[i];
  }

  line(i: number): string {
    return this.bytes(i).toString('utf8');
  }

  /** Range i's bytes as read (fewer where the file ends first), a view valid until the next call. */
  bytes(i: number): Buffer {
    if (i < this.first || i >= this.last) this.readFrom(i);
    const { start, bytes } = this.ranges;
    const from = start[i] - start[this.first];
    return this.buffer.subarray(Math.min(from, this.done), Math.min(from + bytes[i], this.done));
  }

  close(): void {
    for (const fd of this.handles.values()) closeSync(fd);
  }

  private readFrom(i: number): void {
    const { file, start, bytes } = this.ranges;
    let [last, end] = [i + 1, start[i] + bytes[i]];
    while (
      last < file.length &&
      file[last] === file[i] &&
      start[last] >= end &&
      start[last] - end <= GAP_BYTES &&
      start[last] + bytes[last] - start[i] <= BLOCK_BYTES
    )
      end = start[last] + bytes[last++];
    let fd = this.handles.get(file[i]);
    if (fd === undefined) this.handles.set(file[i], (fd = openSync(this.source.texts.files[file[i]].path, 'r')));
    if (this.buffer.length < end - start[i]) this.buffer = Buffer.alloc(end - start[i]);
    this.done = readUpTo(fd, this.buffer, start[i], end - start[i]);
    [this.first, this.last] = [i, last];
  }
}

function textOf(source: TextSource, line: string, ranges: TextRanges, i: number): string {
  const [path, start] = [source.texts.files[ranges.file[i]].path, ranges.start[i]];
  const parsed = parseJsonLine(line, path, 0, false, source.read);
  if (parsed instanceof InputError)
    throw new Error(
      `${path}, byte ${start}: not the JSON line the shards were signed from (${parsed.message}): sign them again`,
    );
  return parsed.text;
}

/**
 * Sets appended into shared memory by the first pass's SetArena (chunks of at least `partWords` words); each chunk is a
 * part, its offsets counted as its sets are added.
 */
class SharedPacker {
  private readonly arena: SetArena;
  private readonly offsets: number[][] = [];

  constructor(partWords: number) {
    this.arena = new SetArena(partWords);
  }

  add(set: Uint32Array): void {
    const { chunk, start } = this.arena.add(set);
    if (chunk === this.offsets.length) this.offsets.push([start]);
    this.offsets[chunk].push(start + set.length);
  }

  finish(): PackedSets[] {
    return this.offsets.map((offsets, chunk) => ({
      words: new Uint32Array(this.arena.chunks[chunk]),
      offsets: Uint32Array.from(offsets),
    }));
  }
}

/**
 * Sets numbered across parts: set g is part p's set g − first[p], p the last part with first[p] ≤ g. A set in a file
 * part is read into scratch `slot` (0 or 1: a pair's two sets), valid until that slot is read into again.
 */
export class SetsAcross {
  private readonly first: number[] = [];
  private count = 0;
  private readonly files = new FileSetReader();

  constructor(readonly parts: readonly PackedSets[]) {
    for (const part of parts) {
      this.first.push(this.count);
      this.count += setsIn(part);
    }
  }

  close(): void {
    this.files.close();
  }

  get size(): number {
    return this.count;
  }

  set(g: number, slot: 0 | 1 = 0): Uint32Array {
    if (!(g >= 0 && g < this.count)) throw new Error(`internal: no set ${g} of ${this.count}`);
    let [low, high] = [0, this.first.length - 1];
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.first[middle] <= g) low = middle;
      else high = middle - 1;
    }
    const part = this.parts[low];
    const i = g - this.first[low];
    if (!('words' in part)) return this.files.read(part, i, slot);
    return part.words.subarray(part.offsets[i], part.offsets[i + 1]);
  }
}

/** 1 where the pair (a[i], b[i]) of sets across `parts` passes the rule, as decidePair decides it exactly. */
export function decideSetPairs(parts: readonly PackedSets[], pairs: SetPairs, rule: SetRule): Uint8Array {
  const sets = new SetsAcross(parts);
  const { a, b } = pairs;
  const passed = new Uint8Array(a.length);
  try {
    if (rule.measure === 'jaccard') {
      // A run of pairs sharing their first set (groupedPairs) fills the kernel's table with it once: the same count.
      for (let i = 0; i < a.length; ) {
        const jaccard = jaccardWith(sets.set(a[i], 0));
        for (const lead = a[i]; i < a.length && a[i] === lead; i++)
          passed[i] = jaccard(sets.set(b[i], 1)) >= rule.threshold ? 1 : 0;
      }
      return passed;
    }
    const similarity = exactSimilarityOf(rule.measure);
    for (let i = 0; i < passed.length; i++)
      passed[i] = similarity(sets.set(a[i], 0), sets.set(b[i], 1)) >= rule.threshold ? 1 : 0;
    return passed;
  } finally {
    sets.close();
  }
}
