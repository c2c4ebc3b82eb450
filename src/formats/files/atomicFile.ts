/**
 * Files that appear complete or not at all: written under a temporary name in
 * the same directory, flushed to disk, then renamed over `NAME`. The
 * temporary is `.NAME.<pid>-<random>.partial`, created exclusively (it can
 * never be an input, or any existing file) and removed on failure, at exit
 * and on signals (temporaries.ts); a run killed outright (SIGKILL, power)
 * leaves at most that hidden file, never a truncated file under the real name.
 *
 * `gpudedup sign` writes resumable files instead (createResumable): the fixed
 * name `NAME.partial`, kept after a failure or an interrupt so that `--resume`
 * continues from it (signatureFile.ts); the output checks refuse an input of
 * that name up front (src/pipeline/shared/outputChecks.ts).
 */
import { mkdir, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { systemReason } from '../../errors.js';
import { forgetTemporary, removeTemporary, reserveTemporary } from './temporaries.js';

/** The checkpoint name of a resumable output (`gpudedup sign`). */
export function partialPath(path: string): string {
  return `${path}.partial`;
}

/**
 * A failed write, rename or open of an output file: one line naming the file
 * and the system's reason. Never a GPU failure, whatever was running then.
 */
export class OutputError extends Error {
  override readonly name = 'OutputError';

  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    super(`${path}: ${systemReason(cause)}`, { cause });
  }
}

/** Runs a file-system step of `path`, turning its error into an OutputError. */
async function onOutput<T>(path: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw error instanceof OutputError ? error : new OutputError(path, error);
  }
}

export class AtomicFile {
  private constructor(
    readonly path: string,
    readonly tempPath: string,
    private readonly handle: FileHandle,
    private position: number,
  ) {}

  /** A new file under a fresh temporary name (never an existing file), removed unless committed. */
  static async create(path: string): Promise<AtomicFile> {
    await onOutput(dirname(path), () => mkdir(dirname(path), { recursive: true }));
    // Created and registered in one synchronous step: a signal handler (JavaScript, between two
    // awaits) never sees the file exist unregistered, and the open below cannot create it again.
    let tempPath: string;
    try {
      tempPath = reserveTemporary(path);
    } catch (error) {
      throw new OutputError(path, error);
    }
    try {
      return new AtomicFile(path, tempPath, await onOutput(tempPath, () => open(tempPath, 'r+')), 0);
    } catch (error) {
      removeTemporary(tempPath);
      throw error;
    }
  }

  /**
   * A resumable file: written as `NAME.partial` (a stale one from an earlier run is overwritten), kept if not
   * committed.
   */
  static async createResumable(path: string): Promise<AtomicFile> {
    const tempPath = partialPath(path);
    await onOutput(dirname(path), () => mkdir(dirname(path), { recursive: true }));
    return new AtomicFile(path, tempPath, await onOutput(tempPath, () => open(tempPath, 'w')), 0);
  }

  /** Reopens the `.partial` of an interrupted run, cut to its first `length` bytes, to append after them. */
  static async reopen(path: string, length: number): Promise<AtomicFile> {
    const tempPath = partialPath(path);
    const handle = await onOutput(tempPath, () => open(tempPath, 'r+'));
    await onOutput(tempPath, () => handle.truncate(length));
    return new AtomicFile(path, tempPath, handle, length);
  }

  /** Appends at the end of what was written so far. */
  async write(data: Uint8Array | string): Promise<void> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    await this.writeAt(bytes, this.position);
    this.position += bytes.length;
  }

  /** Overwrites bytes at a fixed position (for headers whose content is known only at the end). */
  async writeAt(data: Uint8Array, position: number): Promise<void> {
    // pwrite may write less than asked (a full disk, a signal) without an error: write the rest.
    for (let done = 0; done < data.length; ) {
      const { bytesWritten } = await onOutput(this.tempPath, () =>
        this.handle.write(data, done, data.length - done, position + done),
      );
      if (bytesWritten === 0) throw new OutputError(this.tempPath, new Error('write made no progress'));
      done += bytesWritten;
    }
  }

  /** Flushes, closes and renames into place. */
  async commit(): Promise<void> {
    await onOutput(this.tempPath, () => this.handle.datasync());
    await onOutput(this.tempPath, () => this.handle.close());
    await onOutput(this.path, () => rename(this.tempPath, this.path));
    forgetTemporary(this.tempPath);
  }

  /** Closes and deletes the `.partial` file; the final name is left untouched. */
  async abort(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await unlink(this.tempPath).catch(() => undefined);
    forgetTemporary(this.tempPath);
  }
}

/**
 * `-o -` and the like: standard output, written as it comes (a pipe cannot be
 * renamed into place; a failed run is seen by its exit status).
 */
export class StandardOutput {
  readonly path = '-';

  async write(data: Uint8Array | string): Promise<void> {
    if (process.stdout.write(data)) return;
    await new Promise<void>((resolve) => process.stdout.once('drain', resolve));
  }

  async commit(): Promise<void> {}

  async abort(): Promise<void> {}
}

/** What row and text writers write to: an AtomicFile, or standard output for `-`. */
export type OutputFile = Pick<AtomicFile, 'path' | 'write' | 'commit' | 'abort'>;

export function openOutput(path: string): Promise<OutputFile> {
  return path === '-' ? Promise.resolve(new StandardOutput()) : AtomicFile.create(path);
}
