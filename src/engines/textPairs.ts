/**
 * The exact pass of `cluster` on shards that store where each text lies instead of its shingle list (shard format v3,
 * src/formats/shards/shardFile.ts): the engine hands the margin pairs over with both documents' byte ranges, and
 * this reads each document's JSON line again from the signed file, takes its text field, shingles it with dedup's
 * code (shingleDocument: the sets the first pass keeps, so the lists a v2 shard would hold) and decides each pair as
 * decidePair does, exact similarity ≥ threshold (exactJaccard, or exactAngular for SimHash shards). The decisions
 * are dedup's, so the clusters are too.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { ShardTexts } from '../formats/shards/shardFile.js';
import { InputError, type ReadOptions } from '../io/documents.js';
import { parseJsonLine } from '../io/jsonLines.js';
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

export function textPairDecider(source: TextSource): TextPairDecider {
  // Kept across calls: the representative check's rounds meet the margin's documents again.
  const sets = new SetsByPosition(source);
  return async (pairs, rule) => {
    for (let i = 0; i < pairs.l.length; i++) {
      sets.want(pairs.l[i], pairs.xf[i], pairs.xs[i], pairs.xb[i]);
      sets.want(pairs.r[i], pairs.yf[i], pairs.ys[i], pairs.yb[i]);
    }
    sets.read();
    const similarity = exactSimilarityOf(rule.simhash === undefined ? 'jaccard' : 'angular');
    const passed = new Uint8Array(pairs.l.length);
    for (let i = 0; i < passed.length; i++)
      passed[i] = similarity(sets.of(pairs.l[i]), sets.of(pairs.r[i])) >= rule.threshold ? 1 : 0;
    return passed;
  };
}

/** The shingle sets of the documents pairs need, each read and shingled once, in file order. */
class SetsByPosition {
  private readonly wanted = new Map<number, { file: number; start: number; bytes: number }>();
  private readonly sets = new Map<number, Uint32Array>();

  constructor(private readonly source: TextSource) {}

  want(position: number, file: number, start: number, bytes: number): void {
    if (!this.sets.has(position) && !this.wanted.has(position)) this.wanted.set(position, { file, start, bytes });
  }

  of(position: number): Uint32Array {
    const set = this.sets.get(position);
    if (set === undefined) throw new Error(`internal: no text read for position ${position}`);
    return set;
  }

  /** Reads every wanted text by its range, front to back in each file, and shingles it. */
  read(): void {
    const order = [...this.wanted.entries()].sort(
      ([, a], [, b]) => a.file - b.file || a.start - b.start,
    );
    const handles = new Map<number, number>();
    let buffer = Buffer.alloc(1 << 16);
    try {
      for (const [position, range] of order) {
        const { path } = this.source.texts.files[range.file];
        let fd = handles.get(range.file);
        if (fd === undefined) handles.set(range.file, (fd = openSync(path, 'r')));
        if (buffer.length < range.bytes) buffer = Buffer.alloc(Math.max(range.bytes, 2 * buffer.length));
        let done = 0;
        while (done < range.bytes) {
          const n = readSync(fd, buffer, done, range.bytes - done, range.start + done);
          if (n === 0) break;
          done += n;
        }
        this.sets.set(position, shingleDocument(this.textOf(buffer.toString('utf8', 0, done), path, range.start), this.source.shingle));
      }
    } finally {
      for (const fd of handles.values()) closeSync(fd);
    }
    this.wanted.clear();
  }

  private textOf(line: string, path: string, start: number): string {
    const parsed = parseJsonLine(line, path, 0, false, this.source.read);
    if (parsed instanceof InputError)
      throw new Error(
        `${path}, byte ${start}: not the JSON line the shards were signed from (${parsed.message}): sign them again`,
      );
    return parsed.text;
  }
}
