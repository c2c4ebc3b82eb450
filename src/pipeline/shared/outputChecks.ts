/**
 * Checks made before any work, so that a run never destroys its own input or
 * fails at the end on an output path it could have refused at the start:
 *
 * - every output must be a file name (not a directory), and no two outputs
 *   may name one file (by real path, or by device and inode);
 * - no output may be any file the command reads: the corpus, `--against`
 *   references, a `--signatures` file and its sidecar, a `--clusters-from`
 *   table, `cluster`'s shards (by real path, and by device and inode, so
 *   symlinks and hard links are caught too);
 * - the directory each output goes to must be one the run can write in (or
 *   create): a probe file is created there and removed.
 *
 * `-` is standard output (as an input it is standard input): at most one
 * output may be `-`.
 */
import { realpath, stat, unlink, open } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { forgetTemporary, registerTemporary, temporaryName } from '../../formats/files/temporaries.js';
import type { InputFile } from '../../io/readDocuments.js';

export interface NamedOutput {
  /** How the user named it, e.g. `-o` or `--clusters`. */
  readonly flag: string;
  readonly path: string;
}

/** A file the command reads; `role` names the option that gave it (`--signatures`), absent for the corpus. */
export interface ReadFile {
  readonly path: string;
  readonly role?: string;
}

export async function checkOutputs(outputs: readonly NamedOutput[], inputs: readonly ReadFile[]): Promise<void> {
  const files = outputs.filter((o) => o.path !== '-');
  const toStdout = outputs.filter((o) => o.path === '-');
  if (toStdout.length > 1)
    throw new OutputPathError(
      `${toStdout.map((o) => o.flag).join(' and ')} ${toStdout.length === 2 ? 'both' : 'all'} name - (standard ` +
        `output): give all but one a file name`,
    );
  const read = await identities(inputs);
  const named = new Map<string, string>();
  for (const output of files) {
    const { flag, path } = output;
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory()) throw new OutputPathError(`${flag} ${path}: is a directory; give a file name`);
    const keys = [`path:${await canonicalPath(path)}`, ...(info ? [`inode:${info.dev}:${info.ino}`] : [])];
    for (const key of keys) {
      const input = read.get(key);
      if (input !== undefined)
        throw new OutputPathError(
          `${flag} ${path}: is ${describeInput(input, path)}; writing it would destroy it (give another output name)`,
        );
      const other = named.get(key);
      // Two outputs under one name would overwrite each other.
      if (other !== undefined)
        throw new OutputPathError(`${other} and ${flag} both name ${path}: give each output its own file`);
    }
    for (const key of keys) named.set(key, flag);
  }
  for (const output of files) await checkWritable(output);
}

function describeInput(input: ReadFile, outputPath: string): string {
  const name = input.path === outputPath ? 'an input' : `the input ${input.path}`;
  return input.role === undefined ? name : `${name} (${input.role})`;
}

/** Each input file under its real path and its device and inode. */
async function identities(inputs: readonly ReadFile[]): Promise<Map<string, ReadFile>> {
  const ids = new Map<string, ReadFile>();
  for (const input of inputs) {
    if (input.path === '-') continue;
    const info = await stat(input.path).catch(() => undefined);
    if (info === undefined) continue; // a missing input is refused, naming it, where it is read
    ids.set(`inode:${info.dev}:${info.ino}`, input);
    ids.set(`path:${await canonicalPath(input.path)}`, input);
  }
  return ids;
}

/** The real path of `path`, or of its nearest existing ancestor followed by the rest. */
async function canonicalPath(path: string): Promise<string> {
  const absolute = resolve(path);
  const real = await realpath(absolute).catch(() => undefined);
  if (real !== undefined) return real;
  const parent = dirname(absolute);
  return parent === absolute ? absolute : join(await canonicalPath(parent), basename(absolute));
}

/**
 * The output's directory, or the nearest ancestor that exists (the writer
 * creates the rest), must be a directory the run can create files in: tried
 * with a probe file, so read-only file systems and permissions are both seen.
 */
async function checkWritable({ flag, path }: NamedOutput): Promise<void> {
  let dir = dirname(resolve(path));
  let info = await stat(dir).catch(() => undefined);
  while (info === undefined && dirname(dir) !== dir) {
    dir = dirname(dir);
    info = await stat(dir).catch(() => undefined);
  }
  if (info !== undefined && !info.isDirectory())
    throw new OutputPathError(`${flag} ${path}: ${dir} is not a directory`);
  const refused = await cannotCreateFilesIn(dir);
  if (refused !== undefined) throw new OutputPathError(`${flag} ${path}: cannot create files in ${dir}: ${refused}`);
}

/** Why no file can be created in `dir` (tried with a probe file, removed at once), or undefined when one can. */
export async function cannotCreateFilesIn(dir: string): Promise<string | undefined> {
  const probe = temporaryName(join(dir, 'gpudedup-probe'));
  // Registered before it exists, so a signal between open and unlink removes it too.
  registerTemporary(probe);
  try {
    await (await open(probe, 'wx')).close();
  } catch (error) {
    forgetTemporary(probe);
    return reasonOf(error);
  }
  await unlink(probe).catch(() => undefined);
  forgetTemporary(probe);
  return undefined;
}

function reasonOf(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (typeof e?.code !== 'string') return String(error);
  return `${e.message.replace(/^[A-Z]+: /, '').replace(/, \w+ .*$/, '')} (${e.code})`;
}

/** An output path refused before any work. */
export class OutputPathError extends Error {
  override readonly name = 'OutputPathError';
}

/**
 * No output may go inside `dir` (an index directory, which the command reads
 * and writes by its own rules): refused naming the output and the directory.
 */
export async function refuseInsideDirectory(outputs: readonly NamedOutput[], dir: string, role: string): Promise<void> {
  const root = await canonicalPath(dir);
  for (const { flag, path } of outputs) {
    if (path === '-') continue;
    const real = await canonicalPath(path);
    if (real === root || real.startsWith(root + sep))
      throw new OutputPathError(
        `${flag} ${path}: is inside ${role} ${dir}; writing it there would change the index (give a path outside it)`,
      );
  }
}

/** A corpus file that is also a reference would remove every one of its documents as contamination. */
export async function refuseSelfReference(
  corpus: readonly Pick<InputFile, 'path'>[],
  reference: readonly Pick<InputFile, 'path'>[],
): Promise<void> {
  const ids = new Map<string, string>();
  for (const file of corpus) {
    const info = file.path === '-' ? undefined : await stat(file.path).catch(() => undefined);
    if (info) ids.set(`${info.dev}:${info.ino}`, file.path);
  }
  for (const file of reference) {
    const info = file.path === '-' ? undefined : await stat(file.path).catch(() => undefined);
    const same = info && ids.get(`${info.dev}:${info.ino}`);
    if (same) {
      throw new RangeError(
        `--against ${file.path}: is the corpus file ${same}; every one of its documents would match itself and be ` +
          `removed (give a reference set other than the corpus)`,
      );
    }
  }
}
