/**
 * The input of `sign --shard I/N` as pieces (shardPlan.ts): what each file
 * allows (its first bytes, a Parquet footer: read only for files big enough
 * to be split and that a cut falls in), and a shard's pieces read as documents, every byte read from
 * disk counted, so that a run can say how much of the corpus it read.
 *
 * A JSON Lines piece [start, end) holds the lines whose first byte lies in it:
 * the reader starts at start − 1, drops bytes up to the first \n (the end of
 * the line an earlier piece owns), and reads past end only to finish its last
 * line. Lines split as the readers split them (lines.ts) and parse by their
 * rules (jsonLines.ts). A piece that starts mid-file cannot count the lines
 * before it, so its messages name the byte it starts at, and a document there
 * without an id (which would be named by its line number) is refused.
 */
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { AsyncBuffer } from 'hyparquet';
import { idFieldRequired, InputError, type InputDocument, type ReadOptions } from './documents.js';
import { compressionOf } from './inputFormat.js';
import type { InputFile } from './inputFiles.js';
import { isJsonName, parseJsonLine, startsJsonArray } from './jsonLines.js';
import { splitLines } from './lines.js';
import { localParquetFile } from './localParquetFile.js';
import { openParquet, readParquetRowGroup, type ParquetSource } from './parquetDocuments.js';
import { readDocuments } from './readDocuments.js';
import { mayBeSplit, type Piece, type PlannedFile } from './shardPlan.js';

/** Counts bytes read from disk (every read, footers read twice included). */
export type CountBytes = (bytes: number) => void;

export interface DescribedInput {
  readonly planned: PlannedFile[];
  /** Parquet footers read while planning, by file index, so the pieces need not read them again. */
  readonly footers: (ParquetSource | undefined)[];
  /** Big files that go whole to one shard, and why. */
  readonly notes: string[];
}

/**
 * Footer bytes asked for at first: the length and magic, then exactly the footer (hyparquet's default 512 KiB would
 * read all of a small file).
 */
const FOOTER_FETCH = 8;
/** Enough for a first JSON line; a file whose first line is longer is read whole by one shard. */
const HEAD_LIMIT = 1 << 20;
/** Bytes per read of a piece; its last line is finished in reads of TAIL_CHUNK. */
const CHUNK = 1 << 20;
const TAIL_CHUNK = 1 << 14;
const LF = 0x0a;

/** What each file allows, looking into only the files big enough to split. */
export async function describeForShards(
  files: readonly InputFile[],
  read: ReadOptions,
  count: number,
  countBytes: CountBytes,
): Promise<DescribedInput> {
  const total = files.reduce((sum, f) => sum + (f.size ?? 0), 0);
  const described: DescribedInput = { planned: [], footers: [], notes: [] };
  let at = 0;
  for (const file of files) {
    const size = file.size ?? 0;
    const candidate = mayBeSplit(at, size, total, count);
    at += size;
    let footer: ParquetSource | undefined;
    let split: PlannedFile['split'] = { kind: 'whole' };
    if (candidate && file.format === 'parquet') {
      footer = await parquetFooter(file.path, countBytes);
      const groups = footer.metadata.row_groups.map((g) => Number(g.total_compressed_size ?? g.total_byte_size));
      if (groups.length > 1) split = { kind: 'groups', sizes: groups };
      else described.notes.push(`${file.path}: one row group, so read whole by one shard`);
    } else if (candidate && file.format === 'jsonl') {
      const why = await whyWhole(file.path, read, countBytes);
      if (why === undefined) split = { kind: 'bytes' };
      else described.notes.push(`${file.path}: read whole by one shard (${why})`);
    }
    described.planned.push({ size, split });
    described.footers.push(footer);
  }
  return described;
}

/** Why a JSON Lines file cannot be cut at line ends, from its first bytes; undefined when it can. */
async function whyWhole(path: string, read: ReadOptions, countBytes: CountBytes): Promise<string | undefined> {
  const head = await readHead(path, countBytes);
  const compression = compressionOf(head);
  if (compression !== 'none')
    return `${compression}-compressed: a compressed stream cannot be entered mid-way; give several files to spread it`;
  const text = new TextDecoder().decode(head);
  const firstLine = text.split('\n').find((line) => line.replace(/^\ufeff/, '').trim() !== '');
  if (firstLine === undefined) return `no line end in its first ${HEAD_LIMIT} bytes`;
  if (isJsonName(path) && startsJsonArray(firstLine.replace(/^\ufeff/, ''))) return 'a JSON array, parsed whole';
  if (!idFieldRequired(read.idField)) {
    const parsed = parseJsonLine(firstLine.replace(/^\ufeff/, ''), path, 1, false, read);
    if (parsed instanceof InputError) return 'its first line is not a JSON Lines record';
    const id = parsed.record?.[read.idField];
    if (id === undefined || id === null)
      return (
        `no "${read.idField}" in its first record: documents are named by line number, which a shard starting ` +
        `mid-file cannot count`
      );
  }
  return undefined;
}

/** The file's first bytes up to its first complete non-blank line (at most HEAD_LIMIT). */
async function readHead(path: string, countBytes: CountBytes): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    let head = new Uint8Array(0);
    for (let want = 1 << 12; ; want = Math.min(HEAD_LIMIT, want * 4)) {
      const more = new Uint8Array(want - head.length);
      const { bytesRead } = await handle.read(more, 0, more.length, head.length);
      countBytes(bytesRead);
      const joined = new Uint8Array(head.length + bytesRead);
      joined.set(head);
      joined.set(more.subarray(0, bytesRead), head.length);
      head = joined;
      const text = new TextDecoder().decode(head);
      const complete = text.split('\n').slice(0, -1);
      if (
        bytesRead < more.length ||
        want >= HEAD_LIMIT ||
        complete.some((l) => l.replace(/^\ufeff/, '').trim() !== '') ||
        compressionOf(head) !== 'none'
      )
        return head;
    }
  } finally {
    await handle.close();
  }
}

async function parquetFooter(path: string, countBytes: CountBytes): Promise<ParquetSource> {
  const parquet = await localParquetFile(path, () => undefined);
  try {
    return await openParquet(counted(parquet.file, countBytes), path, FOOTER_FETCH);
  } finally {
    await parquet.close();
  }
}

/** An AsyncBuffer that counts every byte sliced from it. */
function counted(file: AsyncBuffer, countBytes: CountBytes): AsyncBuffer {
  return {
    byteLength: file.byteLength,
    slice: async (start, end) => {
      const bytes = await file.slice(start, end);
      countBytes(bytes.byteLength);
      return bytes;
    },
  };
}

/** One piece's documents, in input order. */
export async function* readPiece(
  file: InputFile,
  piece: Piece,
  footer: ParquetSource | undefined,
  qualifyIds: boolean,
  read: ReadOptions,
  countBytes: CountBytes,
): AsyncGenerator<Omit<InputDocument, 'index'>> {
  if (piece.kind === 'bytes') yield* readLines(file.path, piece.start, piece.end, qualifyIds, read, countBytes);
  else if (file.format === 'parquet') {
    const parquet = await localParquetFile(file.path, () => undefined);
    try {
      const source = counted(parquet.file, countBytes);
      const opened = footer ?? (await openParquet(source, file.path, FOOTER_FETCH));
      const [first, end] = piece.kind === 'groups' ? [piece.first, piece.end] : [0, opened.metadata.row_groups.length];
      for (let group = first; group < end; group++)
        yield* readParquetRowGroup(source, file.path, group, qualifyIds, read, opened);
    } finally {
      await parquet.close();
    }
  } else {
    let before = 0;
    const onBytes = (bytes: number): void => {
      countBytes(bytes - before);
      before = bytes;
    };
    for await (const { index: _, ...doc } of readDocuments([file], { ...read, onBytes }, qualifyIds)) yield doc;
  }
}

/** The JSON lines whose first byte lies in [start, end) of the file. */
async function* readLines(
  path: string,
  start: number,
  end: number,
  qualifyIds: boolean,
  read: ReadOptions,
  countBytes: CountBytes,
): AsyncGenerator<Omit<InputDocument, 'index'>> {
  const lines = splitLines(Readable.from(ownedBytes(path, start, end, countBytes), { objectMode: false }));
  let lineNumber = 0;
  for await (let line of lines) {
    lineNumber++;
    if (start === 0 && lineNumber === 1 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    if (line.trim() === '') continue;
    let parsed = parseJsonLine(line, path, lineNumber, qualifyIds, read);
    if (start > 0 && !(parsed instanceof InputError) && (parsed.record?.[read.idField] ?? null) === null) {
      parsed = new InputError(
        path,
        lineNumber,
        `no "${read.idField}": a shard reading from mid-file cannot name a document by its line number; give every ` +
          `document an id`,
      );
    }
    if (parsed instanceof InputError) {
      // Mid-file, line numbers count from the piece's first line: say so.
      const error =
        start === 0
          ? parsed
          : new InputError(
              path,
              0,
              `line ${lineNumber} from byte ${start}: ${parsed.message.slice(`${path}:${lineNumber}: `.length)}`,
            );
      if (!read.skipInvalid) throw error;
      read.onInvalid?.(error.message);
      continue;
    }
    yield start === 0 ? parsed : { ...parsed, source: { path, line: 0 } };
  }
}

/**
 * The bytes of the lines starting in [start, end): from the first line end at or after start − 1 to the first at or
 * after end − 1.
 */
async function* ownedBytes(
  path: string,
  start: number,
  end: number,
  countBytes: CountBytes,
): AsyncGenerator<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    let at = start === 0 ? 0 : start - 1;
    let skipping = start > 0; // inside the line an earlier piece owns
    let last = -1; // the last byte yielded
    while (at < end) {
      const bytes = await readAt(handle, at, Math.min(CHUNK, end - at), countBytes);
      if (bytes.length === 0) return;
      at += bytes.length;
      let from = 0;
      if (skipping) {
        const lf = bytes.indexOf(LF);
        if (lf < 0) continue;
        skipping = false;
        from = lf + 1;
      }
      if (from < bytes.length) {
        last = bytes[bytes.length - 1];
        yield bytes.subarray(from);
      }
    }
    if (skipping || last === -1 || last === LF) return;
    // Finish the last line, which runs past end.
    for (;;) {
      const bytes = await readAt(handle, at, TAIL_CHUNK, countBytes);
      if (bytes.length === 0) return;
      at += bytes.length;
      const lf = bytes.indexOf(LF);
      if (lf >= 0) {
        yield bytes.subarray(0, lf + 1);
        return;
      }
      yield bytes;
    }
  } finally {
    await handle.close();
  }
}

async function readAt(
  handle: import('node:fs/promises').FileHandle,
  at: number,
  length: number,
  countBytes: CountBytes,
): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(bytes, done, length - done, at + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  countBytes(done);
  return bytes.subarray(0, done);
}
