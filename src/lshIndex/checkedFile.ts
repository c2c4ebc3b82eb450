/**
 * A segment's files as a reader holds them (Node): every file is checked
 * against the manifest's entry — its size at open, its CRC-32 whole or block
 * by block — before any of its bytes is used. A small segment's files are
 * read whole into memory (checked) and closed, so that an index of many
 * small segments holds no descriptor for them; a large one's are read by
 * position through one descriptor each.
 */
import { closeSync, fstatSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { CorruptIndexError } from './errors.js';
import { checkCrc, crcOfFile, readFully, type FileEntry } from './files.js';
import { hex8 } from './manifestCheck.js';
import { BLOCK } from './segmentFormat.js';

/** Opens an index file the manifest names: a missing one is a corrupt index naming it, not a raw ENOENT. */
export function openIndexFile(path: string): number {
  try {
    return openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new MissingIndexFileError(path);
    throw error;
  }
}

/** A file the manifest names that is not there (removed by hand, or by a writer after a newer commit). */
export class MissingIndexFileError extends CorruptIndexError {
  readonly code = 'ENOENT';

  constructor(path: string) {
    super(path, 'missing: the manifest names it, but the file is not there');
  }
}

/** Refuses a file whose size is not the manifest's (a truncated or extended file), naming it. */
function checkSize(fd: number, entry: FileEntry, path: string): void {
  const size = fstatSync(fd).size;
  if (size !== entry.bytes) {
    throw new CorruptIndexError(
      path,
      `${size} bytes, the manifest records ${entry.bytes}: the file ${size < entry.bytes ? 'was truncated' : 'grew'} ` +
        `after it was written`,
    );
  }
}

/**
 * A whole file, its size and CRC-32 checked against the manifest's entry, in a fresh (aligned) buffer or in `into`
 * (of the entry's size: a shared buffer the caller allocated).
 */
export function readChecked(dir: string, entry: FileEntry, into?: Uint8Array): Uint8Array {
  const path = join(dir, entry.name);
  const fd = openIndexFile(path);
  try {
    checkSize(fd, entry, path);
    const bytes = into ?? new Uint8Array(new ArrayBuffer(entry.bytes));
    if (bytes.length !== entry.bytes)
      throw new CorruptIndexError(path, `${entry.bytes} bytes recorded, ${bytes.length} expected`);
    readFully(fd, bytes, 0, path);
    checkCrc(entry, crc32(bytes) >>> 0, path);
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** Checks a whole file's size and CRC-32 by streaming it (nothing kept). */
export function verifyFile(dir: string, entry: FileEntry): void {
  const path = join(dir, entry.name);
  const fd = openIndexFile(path);
  try {
    checkSize(fd, entry, path);
    checkCrc(entry, crcOfFile(fd, entry.bytes, path), path);
  } finally {
    closeSync(fd);
  }
}

/**
 * A file read by position: held in memory (checked whole as it was read) or
 * through a descriptor (its size checked at open; its content is the
 * caller's to check, by block).
 */
export class StoredFile {
  private readonly fd?: number;
  private readonly bytes?: Uint8Array;

  readonly path: string;

  constructor(
    dir: string,
    readonly entry: FileEntry,
    inMemory: boolean,
  ) {
    this.path = join(dir, entry.name);
    if (inMemory) {
      this.bytes = readChecked(dir, entry);
      return;
    }
    this.fd = openIndexFile(this.path);
    try {
      checkSize(this.fd, entry, this.path);
    } catch (error) {
      closeSync(this.fd);
      throw error;
    }
  }

  /** Whether every byte is known to match the manifest's CRC-32 (read whole and checked). */
  get verified(): boolean {
    return this.bytes !== undefined;
  }

  /** The whole file's CRC-32 checked (streamed from the descriptor). */
  verifyAll(): void {
    if (this.fd !== undefined) checkCrc(this.entry, crcOfFile(this.fd, this.entry.bytes, this.path), this.path);
  }

  read(into: Uint8Array, position: number): void {
    if (position + into.length > this.entry.bytes)
      throw new CorruptIndexError(
        this.path,
        `a read of bytes ${position}–${position + into.length} past its ${this.entry.bytes} bytes`,
      );
    if (this.bytes !== undefined) into.set(this.bytes.subarray(position, position + into.length));
    else if (this.fd !== undefined) readFully(this.fd, into, position, this.path);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
  }
}

/**
 * A signature or set file read by position. Its blocks' CRC-32 are checked
 * once each: all before the segment opens (`open`), or each block on the
 * first read that touches it (`lazy`); a file held in memory was checked whole.
 */
export class CheckedFile {
  private readonly file: StoredFile;
  private readonly checked: Uint8Array;
  private readonly block = new Uint8Array(BLOCK);
  private readonly path: string;

  constructor(
    dir: string,
    entry: FileEntry,
    private readonly blocks: Uint32Array,
    inMemory: boolean,
  ) {
    this.path = join(dir, entry.name);
    if (blocks.length !== Math.ceil(entry.bytes / BLOCK))
      throw new CorruptIndexError(this.path, `${blocks.length} block checksums for ${entry.bytes} bytes`);
    this.file = new StoredFile(dir, entry, inMemory);
    // Held in memory, the file was checked whole: hence each block (the writer recorded both from the same bytes).
    this.checked = new Uint8Array(blocks.length).fill(this.file.verified ? 1 : 0);
  }

  /** The whole file's CRC-32, streamed; every block counts as checked after it. */
  verifyAll(): void {
    this.file.verifyAll();
    this.checked.fill(1);
  }

  read(into: Uint8Array, position: number): void {
    const last = Math.floor((position + into.length - 1) / BLOCK);
    for (let b = Math.floor(position / BLOCK); b <= last; b++) if (this.checked[b] === 0) this.checkBlock(b);
    this.file.read(into, position);
  }

  private checkBlock(b: number): void {
    const view = this.block.subarray(0, Math.min(BLOCK, this.file.entry.bytes - b * BLOCK));
    this.file.read(view, b * BLOCK);
    const actual = crc32(view) >>> 0;
    if (actual !== this.blocks[b]) {
      throw new CorruptIndexError(
        this.path,
        `checksum mismatch in bytes ${b * BLOCK}–${b * BLOCK + view.length} (block CRC-32 ${hex8(actual)}, recorded ` +
          `${hex8(this.blocks[b])}): the file changed after it was written`,
      );
    }
    this.checked[b] = 1;
  }

  close(): void {
    this.file.close();
  }
}
