/**
 * Where a `sign --shard I/N` run's documents come from, and how their
 * positions are formed (recorded in the shard's metadata, src/formats/shards/shardFile.ts):
 *
 * - ranges (files): the shard reads only its pieces of the input
 *   (src/io/shardPlan.ts), N shards reading the corpus about once in total;
 *   positions are `(I − 1) × 2^32 + ordinal in the shard`, which order
 *   documents as the whole input does.
 * - modulo (standard input, which cannot be split or re-read): every shard
 *   streams all of it and keeps the documents at global positions p with
 *   p mod N = I − 1.
 *
 * Both count the bytes they read from disk (or the pipe).
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ShardMeta, ShardTexts } from '../../formats/shards/shardFile.js';
import { rangePosition, type ShardRanges } from '../../formats/shards/shardRanges.js';
import type { InputDocument, ReadOptions } from '../../io/documents.js';
import { readDocuments, readsOnce, totalInputBytes, type InputFile } from '../../io/readDocuments.js';
import { describeForShards, readPiece, whyNoRanges, type CountBytes } from '../../io/shardInputs.js';
import { planShards, type Piece } from '../../io/shardPlan.js';
import { rangeSize } from '../../firstPass/node/inputUnits.js';
import { DEDUP_UNIT_BYTES } from '../shared/corpusPass.js';
import type { RangeUnit } from '../../firstPass/rangeUnits.js';
import type { StageProgress } from '../shared/config.js';

export interface ShardSource {
  /** Bytes this shard is to read, for progress (undefined for standard input). */
  readonly bytes: number | undefined;
  /** The shard's documents, `index` being the position written to the shard. */
  documents(read: ReadOptions, progress: StageProgress): AsyncIterable<InputDocument>;
  /** The metadata fields the source knows, once its documents are read. */
  meta(): Pick<ShardMeta, 'totalDocuments' | 'bytesRead' | 'ranges'>;
  /** With `byRange` and inputs that allow it: the files every document's `range` points into. */
  readonly texts?: ShardTexts;
  /** Where every piece is uncompressed JSON Lines: the pieces as range units, for the first pass's workers to read. */
  readonly units?: ShardUnits;
}

/** A shard's pieces as the first pass's range units (src/firstPass/rangeUnits.ts), read by the workers themselves. */
export interface ShardUnits {
  /** The units in input order, each with its piece (an index into the shard's pieces). */
  units(): Generator<{ readonly unit: RangeUnit; readonly piece: number }>;
  /** The input file piece `piece` is of (its index among the inputs: a text range's `file`). */
  fileOf(piece: number): number;
  /** The next document of piece `piece`: counted, and its position. */
  position(piece: number): number;
  /** Counts bytes handed to the workers. */
  read(bytes: number): void;
}

/** Shards of at most 2^21 runs keep positions (index × 2^32 + ordinal) exact doubles. */
const MAX_RANGE_SHARDS = 2 ** 21;

export async function shardSource(
  files: readonly InputFile[],
  shard: { index: number; count: number },
  read: ReadOptions,
  note: (message: string) => void,
  byRange = false,
): Promise<ShardSource> {
  const once = files.find((f) => readsOnce(f.path));
  if (once !== undefined) {
    if (byRange) note(listsInstead(`${once.path === '-' ? 'standard input' : once.path} cannot be read again`));
    const what = once.path === '-' ? 'standard input' : `${once.path} (a pipe)`;
    if (shard.count > 1)
      note(
        `${what} cannot be split: this shard reads all of it and keeps every ` +
          `${shard.count}th document (give files to read only this shard's part)`,
      );
    return moduloSource(files, shard);
  }
  if (shard.count > MAX_RANGE_SHARDS) throw new RangeError(`--shard: at most ${MAX_RANGE_SHARDS} shards`);
  return rangeSource(files, shard, read, note, byRange);
}

/** The note of a shard that stores lists where ranges were asked for. */
function listsInstead(why: string): string {
  return `${why}: the shard stores shingle lists (about 1.1× the input's bytes), not text ranges`;
}

/** The files' identities for text ranges, or undefined (with a note) when one cannot be read again by range. */
async function textFiles(
  files: readonly InputFile[],
  countBytes: CountBytes,
  note: (message: string) => void,
): Promise<ShardTexts | undefined> {
  for (const file of files) {
    const why = await whyNoRanges(file, countBytes);
    if (why !== undefined) {
      note(listsInstead(why));
      return undefined;
    }
  }
  const stats = await Promise.all(files.map((f) => stat(f.path)));
  return { files: files.map((f, i) => ({ path: resolve(f.path), size: stats[i].size, mtimeMs: stats[i].mtimeMs })) };
}

async function rangeSource(
  files: readonly InputFile[],
  shard: { index: number; count: number },
  read: ReadOptions,
  note: (message: string) => void,
  byRange: boolean,
): Promise<ShardSource> {
  let bytesRead = 0;
  const countBytes = (n: number): void => {
    bytesRead += n;
  };
  const texts = byRange ? await textFiles(files, countBytes, note) : undefined;
  const described = await describeForShards(files, read, shard.count, countBytes);
  for (const line of described.notes) note(line);
  const plan = planShards(described.planned, shard.count);
  const mine = plan[shard.index];
  const pieces = mine.map((p) => ({ path: files[p.file].path, part: partOf(p), documents: 0 }));
  const identity = {
    count: shard.count,
    files: files.map((f, i) => [f.path, f.size, described.planned[i].split]),
    plan,
  };
  const ranges: ShardRanges = {
    plan: createHash('sha256').update(JSON.stringify(identity)).digest('hex'),
    inputBytes: totalInputBytes(files) ?? 0,
    pieces,
  };
  let documents = 0;
  const next = (k: number): number => {
    pieces[k].documents++;
    return rangePosition(shard.index, documents++);
  };
  return {
    bytes: mine.reduce(
      (sum, p) => sum + pieceBytes(p, described.planned[p.file].size, described.planned[p.file].split),
      0,
    ),
    async *documents(options, progress) {
      for (const [k, piece] of mine.entries()) {
        for await (const doc of readPiece(
          files[piece.file],
          piece,
          described.footers[piece.file],
          files.length > 1,
          options,
          countBytes,
          texts !== undefined,
        )) {
          const range = texts === undefined ? undefined : { ...doc.range!, file: piece.file };
          yield { ...doc, index: next(k), range };
          if ((documents & 1023) === 0) progress.update(documents, bytesRead);
        }
      }
      progress.update(documents, bytesRead);
    },
    meta: () => ({ totalDocuments: documents, bytesRead, ranges }),
    texts,
    units: workerUnits(files, mine, next, countBytes),
  };
}

/** The pieces as range units, where every one is uncompressed JSON Lines; `next(piece)` counts a document. */
function workerUnits(
  files: readonly InputFile[],
  mine: readonly Piece[],
  next: (piece: number) => number,
  countBytes: CountBytes,
): ShardUnits | undefined {
  const byRange = (p: Piece): boolean =>
    files[p.file].format === 'jsonl' && p.kind !== 'groups' && rangeSize(files[p.file]) !== undefined;
  if (!mine.every(byRange)) return undefined;
  return {
    units: () => rangeUnits(files, mine),
    fileOf: (k) => mine[k].file,
    position: next,
    read: countBytes,
  };
}

/** A JSON Lines piece's bytes in its file. */
function rangeOf(files: readonly InputFile[], piece: Piece): { start: number; end: number } {
  return piece.kind === 'bytes' ? piece : { start: 0, end: files[piece.file].size ?? 0 };
}

/**
 * The pieces cut into range units of DEDUP_UNIT_BYTES, as dedup's first pass cuts its corpus (corpusPass.ts): at
 * lineUnits.ts's 512 KiB a 1 M half was 1,900 units, each six messages and their promises, its rows and ring lookups on
 * the main thread, which also writes the Parquet columns. A piece that starts mid-file
 * counts its lines from its own first line: its units are named `PATH from byte START`, which messages then name, and
 * say so (`midFile`), so that the workers refuse a document without an id there.
 */
function* rangeUnits(
  files: readonly InputFile[],
  mine: readonly Piece[],
): Generator<{ readonly unit: RangeUnit; readonly piece: number }> {
  for (const [piece, p] of mine.entries()) {
    const file = files[p.file];
    const { start, end } = rangeOf(files, p);
    const path = start === 0 ? file.path : `${file.path} from byte ${start}`;
    const [size, qualifyIds] = [file.size ?? 0, files.length > 1];
    for (let at = start; at < end; at += DEDUP_UNIT_BYTES) {
      const unit = {
        kind: 'range',
        path,
        source: file.path,
        start: at,
        end: Math.min(end, at + DEDUP_UNIT_BYTES),
        size,
        qualifyIds,
        ...(start === 0 ? {} : { midFile: { path: file.path, start } }),
      };
      yield { unit: unit as RangeUnit, piece };
    }
  }
}

function moduloSource(files: readonly InputFile[], shard: { index: number; count: number }): ShardSource {
  let bytesRead = 0;
  let total = 0;
  return {
    bytes: totalInputBytes(files),
    async *documents(read, progress) {
      for await (const doc of readDocuments(files, { ...read, onBytes: (b) => (bytesRead = b) })) {
        total = doc.index + 1;
        if ((doc.index & 1023) === 0) progress.update(doc.index, bytesRead);
        if (doc.index % shard.count === shard.index) yield doc;
      }
    },
    meta: () => ({ totalDocuments: total, bytesRead }),
  };
}

/** How the metadata names a piece. */
function partOf(piece: Piece): string {
  if (piece.kind === 'file') return 'whole';
  return piece.kind === 'groups' ? `groups ${piece.first}-${piece.end}` : `bytes ${piece.start}-${piece.end}`;
}

function pieceBytes(piece: Piece, size: number, split: { kind: string; sizes?: readonly number[] }): number {
  if (piece.kind === 'bytes') return piece.end - piece.start;
  if (piece.kind === 'groups') return (split.sizes ?? []).slice(piece.first, piece.end).reduce((a, b) => a + b, 0);
  return size;
}
