/**
 * The exact pass of `cluster` on shards that store where each text lies instead of its shingle list (shard format v3,
 * src/formats/shards/shardFile.ts): the engine hands the margin pairs over with both documents' byte ranges, and
 * this reads each document's JSON line again from the signed file, takes its text field, shingles it with dedup's
 * code (shingleDocument: the sets the first pass keeps, so the lists a v2 shard would hold) and decides each pair as
 * decidePair does, exact similarity ≥ threshold (exactJaccard, or exactAngular for SimHash shards). The decisions
 * are dedup's, so the clusters are too.
 */
import { statSync } from 'node:fs';
import type { ShardTexts } from '../formats/shards/shardFile.js';
import { RANGE_POSITION_STRIDE } from '../formats/shards/shardRanges.js';
import type { SqlPairRule } from './sqlParts.js';
import type { PackedSets, SetPairs, SetRule, TextRanges } from './textSets.js';

export type { PackedSets, SetPairs, SetRule, TextRanges, TextSource } from './textSets.js';

/** Pairs as the host step's SQL gives them (sqlParts.ts): positions, and each side's file, first byte and bytes. */
export interface TextPairRows {
  readonly l: ArrayLike<number>;
  readonly r: ArrayLike<number>;
  readonly xf: ArrayLike<number>;
  readonly xs: ArrayLike<number>;
  readonly xb: ArrayLike<number>;
  readonly yf: ArrayLike<number>;
  readonly ys: ArrayLike<number>;
  readonly yb: ArrayLike<number>;
}

/** Decides pairs under a rule: 1 where the exact measure passes. */
export type TextPairDecider = (pairs: TextPairRows, rule: SqlPairRule) => Promise<Uint8Array>;

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

/**
 * The exact pass's work on the texts (textSets.ts), on worker threads (textWorkers.ts) or this one: ranges read and
 * shingled into packed parts in shared memory (in range order; at 1 M they hold gigabytes, never joined or copied),
 * and pairs of those sets decided where the sets lie.
 */
export interface TextWork {
  shingle(ranges: TextRanges): Promise<readonly PackedSets[]>;
  /** 1 where the pair (a[i], b[i]) of sets numbered across `parts` (their sets counted in order) passes the rule. */
  decide(parts: readonly PackedSets[], pairs: SetPairs, rule: SetRule): Promise<Uint8Array>;
}

export function textPairDecider(work: TextWork): TextPairDecider {
  // Kept across calls: the representative check's rounds meet the margin's documents again.
  const sets = new SetsByPosition(work);
  return async (pairs, rule) => {
    for (let i = 0; i < pairs.l.length; i++) {
      sets.want(pairs.l[i], pairs.xf[i], pairs.xs[i], pairs.xb[i]);
      sets.want(pairs.r[i], pairs.yf[i], pairs.ys[i], pairs.yb[i]);
    }
    await sets.read();
    const [a, b] = [new Uint32Array(pairs.l.length), new Uint32Array(pairs.l.length)];
    for (let i = 0; i < a.length; i++) [a[i], b[i]] = [sets.of(pairs.l[i]), sets.of(pairs.r[i])];
    const measure = rule.simhash === undefined ? 'jaccard' : 'angular';
    const { order, grouped } = groupedPairs({ a, b }, sets.count, inFiles(sets.parts, sets.count));
    const passed = await work.decide(sets.parts, grouped, { measure, threshold: rule.threshold });
    const out = new Uint8Array(passed.length);
    for (let k = 0; k < order.length; k++) out[order[k]] = passed[k];
    return out;
  };
}

/**
 * The pairs in runs sharing their first set (a set and its partners: the measures are symmetric, so either side may
 * come first): each pair led by whichever of its sets is in more pairs, the pairs ordered by that set (a counting
 * sort over the `sets` numbers), so that a run fills the exact kernel's table once (decideSetPairs). Where `inFile`
 * marks sets that lie in files (past the memory budget), a pair with such a set is led by the later of them instead:
 * the leads then come in file order, read front to back in large blocks (FileSetReader), and the other set is more
 * often one held in memory (the runs held come first) or one read just before. `order[k]`: the pair given as grouped
 * pair k.
 */
export function groupedPairs(
  pairs: SetPairs,
  sets: number,
  inFile?: Uint8Array,
): { order: Uint32Array; grouped: SetPairs } {
  const { a, b } = pairs;
  const degree = new Uint32Array(sets + 1);
  for (let i = 0; i < a.length; i++) degree[a[i]]++, degree[b[i]]++;
  const byDegree = (i: number): number => (degree[b[i]] > degree[a[i]] ? b[i] : a[i]);
  const laterInFile = (i: number): number => {
    const [x, y] = a[i] > b[i] ? [a[i], b[i]] : [b[i], a[i]];
    return inFile![x] === 1 ? x : inFile![y] === 1 ? y : byDegree(i);
  };
  const lead = inFile === undefined ? byDegree : laterInFile;
  // Counting sort by lead: first[s] is where set s's run begins.
  const first = new Uint32Array(sets + 1);
  for (let i = 0; i < a.length; i++) first[lead(i) + 1]++;
  for (let s = 1; s <= sets; s++) first[s] += first[s - 1];
  const [order, ga, gb] = [new Uint32Array(a.length), new Uint32Array(a.length), new Uint32Array(a.length)];
  for (let i = 0; i < a.length; i++) {
    const s = lead(i);
    const k = first[s]++;
    [order[k], ga[k], gb[k]] = [i, s, s === a[i] ? b[i] : a[i]];
  }
  return { order, grouped: { a: ga, b: gb } };
}

/** 1 for each set (numbered across `parts`) that lies in a file; undefined where none does. */
function inFiles(parts: readonly PackedSets[], sets: number): Uint8Array | undefined {
  if (parts.every((part) => 'words' in part)) return undefined;
  const inFile = new Uint8Array(sets);
  let first = 0;
  for (const part of parts) {
    const count = part.offsets.length - 1;
    if (!('words' in part)) inFile.fill(1, first, first + count);
    first += count;
  }
  return inFile;
}

/** The documents pairs need, each read and shingled once, in file order: each position's set number across parts. */
class SetsByPosition {
  /** By position: its set's number across the parts + 1; −(w + 2) while wanted (`positions[w]`) and not yet read; 0 neither. */
  private readonly numbers = new PositionTable();
  /** The positions wanted and not yet read, with where their texts lie. */
  private readonly positions: number[] = [];
  private readonly files: number[] = [];
  private readonly starts: number[] = [];
  private readonly bytes: number[] = [];
  readonly parts: PackedSets[] = [];
  /** Sets read so far, numbered 0 … count − 1 across the parts. */
  count = 0;

  constructor(private readonly work: TextWork) {}

  want(position: number, file: number, start: number, bytes: number): void {
    if (this.numbers.get(position) !== 0) return;
    this.numbers.set(position, -(this.positions.length + 2));
    this.positions.push(position);
    this.files.push(file);
    this.starts.push(start);
    this.bytes.push(bytes);
  }

  /** The number of the position's set across the parts. */
  of(position: number): number {
    const number = this.numbers.get(position);
    if (!(number > 0)) throw new Error(`internal: no text read for position ${position}`);
    return number - 1;
  }

  /** Reads every wanted text by its range, front to back in each file, and shingles it. */
  async read(): Promise<void> {
    const order = this.fileOrder();
    const ranges = {
      file: new Int32Array(order.length),
      start: new Float64Array(order.length),
      bytes: new Float64Array(order.length),
    };
    for (let i = 0; i < order.length; i++) {
      const w = order[i];
      [ranges.file[i], ranges.start[i], ranges.bytes[i]] = [this.files[w], this.starts[w], this.bytes[w]];
    }
    let shingled = 0;
    for (const part of await this.work.shingle(ranges)) {
      this.parts.push(part);
      shingled += part.offsets.length - 1;
    }
    if (shingled !== order.length) throw new Error(`internal: ${order.length} texts asked for, ${shingled} shingled`);
    for (let i = 0; i < order.length; i++) this.numbers.set(this.positions[order[i]], this.count + i + 1);
    this.count += shingled;
    for (const list of [this.positions, this.files, this.starts, this.bytes]) list.length = 0;
  }

  /**
   * The wanted texts (their indices in `positions`) in file order. A shard numbers its documents in the order it read
   * them, so position order is file order wherever the ranges say so (checked), and a native sort of the positions
   * gives it (a sort with a comparator over the ranges took 0.7 s of 1 M's 1.5 M texts); else that sort.
   */
  private fileOrder(): Uint32Array {
    const { files, starts } = this;
    const order = new Uint32Array(this.positions.length);
    const sorted = Float64Array.from(this.positions).sort();
    for (let i = 0; i < sorted.length; i++) order[i] = -this.numbers.get(sorted[i]) - 2;
    for (let i = 1; i < order.length; i++) {
      const [x, y] = [order[i - 1], order[i]];
      if (files[x] > files[y] || (files[x] === files[y] && starts[x] >= starts[y]))
        return order.sort((x, y) => files[x] - files[y] || starts[x] - starts[y]);
    }
    return order;
  }
}

/**
 * An integer by document position: a shard's positions are its index × 2^32 + ordinals counted from 0 (a run's
 * ordinals dense, shardSources.ts), so one growing array a shard index, 0 where nothing was set.
 */
class PositionTable {
  private readonly tables: Int32Array[] = [];

  get(position: number): number {
    const high = Math.floor(position / RANGE_POSITION_STRIDE);
    const table = this.tables[high];
    const low = position - high * RANGE_POSITION_STRIDE;
    return table !== undefined && low < table.length ? table[low] : 0;
  }

  set(position: number, value: number): void {
    const high = Math.floor(position / RANGE_POSITION_STRIDE);
    const low = position - high * RANGE_POSITION_STRIDE;
    let table = this.tables[high] ?? new Int32Array(1 << 12);
    if (low >= table.length) {
      const grown = new Int32Array(Math.max(2 * table.length, low + 1));
      grown.set(table);
      table = grown;
    }
    this.tables[high] = table;
    table[low] = value;
  }
}
