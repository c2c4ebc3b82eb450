/**
 * The command line's paths → the files to read, in order, each with its format.
 *
 * A directory is walked recursively in sorted order; dot-files are skipped.
 * Symbolic links are followed, to files and to directories, inside the tree or
 * out of it (a Hugging Face snapshot is all links into a blob store). Within one
 * directory's walk every file is read once: one reached again by another path
 * (a link, a hard link; compared by device and inode) is read under the first
 * path in sorted order, and a link back to a directory above it (a loop) is not
 * followed; the note names them. A broken link is refused, naming it: its file
 * would be missing from the outputs. Files and directories named on the command
 * line are read as given (one named twice is refused later, as a repeated id).
 */
import { statSync, type BigIntStats } from 'node:fs';
import { open, readdir, readlink, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { systemReason } from '../errors.js';
import { counted, namesOf } from '../format.js';
import { InputError } from './documents.js';
import { isParquetHead, isParquetName, MAGIC_BYTES } from './inputFormat.js';
import { isJsonLinesName } from './jsonLines.js';
import { spooledInput } from './spooledInputs.js';

export interface InputFile {
  readonly path: string;
  readonly format: 'jsonl' | 'text' | 'parquet';
  /** Bytes on disk (of its copy, for a spooled stream), or undefined for standard input or a pipe (readsOnce). */
  readonly size?: number;
}

/** Bytes on disk of all the files, or undefined when one of them (standard input) has no known size. */
export function totalInputBytes(files: readonly InputFile[]): number | undefined {
  return files.every((f) => f.size !== undefined) ? files.reduce((sum, f) => sum + (f.size ?? 0), 0) : undefined;
}

/**
 * Standard input (`-`), a named pipe, process substitution (`<(zcat a.gz)`,
 * a /dev/fd path) or a device: read once, front to back, as standard input
 * is — JSON Lines (gzip or zstd), no size, no seek, no second pass.
 */
export function readsOnce(path: string): boolean {
  if (spooledInput(path) !== undefined) return false; // copied to a file, read from it as often as needed
  if (path === '-') return true;
  try {
    const info = statSync(path);
    return !info.isFile() && !info.isDirectory();
  } catch {
    return false; // missing: refused where it is opened, naming it
  }
}

/** Expands the command line's paths into the files to read, in order; `note` hears what a walk read once or skipped. */
export async function listInputFiles(paths: readonly string[], note?: (message: string) => void): Promise<InputFile[]> {
  const files: InputFile[] = [];
  for (const path of paths) {
    const copy = spooledInput(path);
    if (copy !== undefined || readsOnce(path)) {
      files.push({ path, format: 'jsonl', size: copy?.size });
      continue;
    }
    const info = await statInput(path);
    if (info.isDirectory()) {
      const walk = await walkDirectory(path, info);
      if (walk.files.length === 0)
        throw new InputError(path, 0, 'the directory holds no input files (dot-files are skipped)');
      for (const file of walk.files) files.push(await describeFile(file));
      if (note !== undefined) for (const line of walkNotes(path, walk)) note(line);
    } else {
      files.push(await describeFile(path));
    }
  }
  return files;
}

/**
 * Every path given exists (a stream aside): checked before the flags' own refusals, so that a missing corpus is said
 * first ("nothing to write" would only hide it until the next run).
 */
export async function checkInputPaths(paths: readonly string[]): Promise<void> {
  for (const path of paths) if (!readsOnce(path)) await statInput(path);
}

/** `stat` through links, its failure one line naming the path (a broken link says where it points). */
async function statInput(path: string): Promise<BigIntStats> {
  try {
    return await stat(path, { bigint: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      const target = await readlink(path).catch(() => undefined);
      throw new InputError(
        path,
        0,
        target === undefined
          ? 'no such file or directory'
          : `a broken symbolic link (to ${target}, which does not exist)`,
      );
    }
    throw new InputError(path, 0, systemReason(error));
  }
}

/** Parquet by its magic (or refused when named `.parquet` without it), else JSONL or text by name. */
async function describeFile(path: string): Promise<InputFile> {
  let size: number;
  const head = Buffer.alloc(MAGIC_BYTES);
  let headLength: number;
  try {
    const handle = await open(path, 'r');
    try {
      size = (await handle.stat()).size;
      headLength = (await handle.read(head, 0, MAGIC_BYTES, 0)).bytesRead;
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new InputError(path, 0, systemReason(error));
  }
  if (isParquetHead(head.subarray(0, headLength))) return { path, format: 'parquet', size };
  if (isParquetName(path)) throw new InputError(path, 0, 'not a Parquet file (it does not start with PAR1)');
  return { path, format: isJsonLinesName(path) ? 'jsonl' : 'text', size };
}

interface Walk {
  readonly files: string[];
  /** Paths not read because the file or directory was reached before: [path, the path it was read as]. */
  readonly repeats: Array<readonly [string, string]>;
  /** Links back to a directory above them: [link, that directory]. */
  readonly loops: Array<readonly [string, string]>;
  /** Entries that are neither files nor directories (sockets, FIFOs, devices). */
  readonly special: string[];
}

const keyOf = (info: BigIntStats): string => `${info.dev}:${info.ino}`;

/** The files under `root`, in sorted order, each real file and directory once. */
async function walkDirectory(root: string, rootInfo: BigIntStats): Promise<Walk> {
  const walk: Walk = { files: [], repeats: [], loops: [], special: [] };
  const seen = new Map<string, string>([[keyOf(rootInfo), root]]); // file or directory → the path it was read as
  const visit = async (dir: string, above: ReadonlySet<string>): Promise<void> => {
    const names = await readdir(dir).catch((error: unknown) => {
      throw new InputError(dir, 0, systemReason(error));
    });
    names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const path = join(dir, name);
      const info = await statInput(path);
      const key = keyOf(info);
      if (!info.isFile() && !info.isDirectory()) walk.special.push(path);
      else if (above.has(key)) walk.loops.push([path, seen.get(key)!]);
      else if (seen.has(key)) walk.repeats.push([path, seen.get(key)!]);
      else {
        seen.set(key, path);
        if (info.isFile()) walk.files.push(path);
        else await visit(path, new Set([...above, key]));
      }
    }
  };
  await visit(root, new Set([keyOf(rootInfo)]));
  return walk;
}

/** What a walk read once or skipped, in at most three lines. */
function walkNotes(root: string, walk: Walk): string[] {
  const notes: string[] = [];
  if (walk.repeats.length > 0) {
    const pairs = walk.repeats.map(([path, first]) => `${path} (= ${first})`);
    notes.push(
      `${root}: ${counted(walk.repeats.length, 'path')} to a file or directory already read, not read again: ` +
        `${namesOf(pairs)}`,
    );
  }
  if (walk.loops.length > 0) {
    const pairs = walk.loops.map(([link, target]) => `${link} → ${target}`);
    notes.push(
      `${root}: ${counted(walk.loops.length, 'symbolic link')} back to a directory above (a loop), not followed: ` +
        `${namesOf(pairs)}`,
    );
  }
  if (walk.special.length > 0)
    notes.push(
      `${root}: skipped ${counted(walk.special.length, 'entry', 'entries')} neither a file nor a directory: ` +
        `${namesOf(walk.special)}`,
    );
  return notes;
}
