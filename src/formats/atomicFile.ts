/**
 * Files that appear complete or not at all: written as `NAME.partial` in the
 * same directory, flushed to disk, then renamed over `NAME`. A run that crashes
 * or is interrupted leaves at most a `.partial` file behind, never a truncated
 * file under the real name. `gpudedup sign --resume` continues from the
 * `.partial` files of an interrupted run (see signatureFile.ts).
 */
import { mkdir, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { systemReason } from '../errors.js';

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

  /** Starts the file afresh (a stale `.partial` from an earlier run is overwritten). */
  static async create(path: string): Promise<AtomicFile> {
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
      const { bytesWritten } = await onOutput(this.tempPath, () => this.handle.write(data, done, data.length - done, position + done));
      if (bytesWritten === 0) throw new OutputError(this.tempPath, new Error('write made no progress'));
      done += bytesWritten;
    }
  }

  /** Flushes, closes and renames into place. */
  async commit(): Promise<void> {
    await onOutput(this.tempPath, () => this.handle.datasync());
    await onOutput(this.tempPath, () => this.handle.close());
    await onOutput(this.path, () => rename(this.tempPath, this.path));
  }

  /** Closes and deletes the `.partial` file; the final name is left untouched. */
  async abort(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await unlink(this.tempPath).catch(() => undefined);
  }
}
