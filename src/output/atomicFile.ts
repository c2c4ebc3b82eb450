/**
 * Files that appear complete or not at all: written under a temporary name in
 * the same directory, flushed to disk, then renamed over the final name. A run
 * that crashes or is interrupted leaves at most a `*.tmp-*` file behind, never
 * a truncated file under the real name.
 */
import { unlinkSync } from 'node:fs';
import { mkdir, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';

const pending = new Set<string>();
let cleanupInstalled = false;

/** On Ctrl-C or SIGTERM, remove unfinished temporary files before exiting. */
function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const path of pending) {
        try {
          unlinkSync(path); // synchronous: the process is about to exit
        } catch {
          // already gone
        }
      }
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
}

export class AtomicFile {
  private constructor(
    readonly path: string,
    readonly tempPath: string,
    readonly handle: FileHandle,
  ) {}

  static async create(path: string): Promise<AtomicFile> {
    installCleanup();
    await mkdir(dirname(path), { recursive: true });
    const tempPath = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    const handle = await open(tempPath, 'wx');
    pending.add(tempPath);
    return new AtomicFile(path, tempPath, handle);
  }

  /** Appends at the end of what was written so far. */
  async write(data: Uint8Array | string): Promise<void> {
    await (typeof data === 'string' ? this.handle.write(data) : this.handle.write(data));
  }

  /** Overwrites bytes at a fixed position (for headers whose content is known only at the end). */
  async writeAt(data: Uint8Array, position: number): Promise<void> {
    await this.handle.write(data, 0, data.length, position);
  }

  /** Flushes, closes and renames into place. */
  async commit(): Promise<void> {
    await this.handle.datasync();
    await this.handle.close();
    await rename(this.tempPath, this.path);
    pending.delete(this.tempPath);
  }

  /** Closes and deletes the temporary file; the final name is left untouched. */
  async abort(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await unlink(this.tempPath).catch(() => undefined);
    pending.delete(this.tempPath);
  }
}
