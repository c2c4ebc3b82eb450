/**
 * The index's file primitives (Node): files written whole with their CRC-32
 * and fsync'd, the manifest replaced by write-temporary + fsync + rename +
 * fsync of the directory, checksums verified by streaming, and the fault
 * hook that crash tests use to stop a commit at any of its steps.
 */
import { closeSync, fsyncSync, openSync, renameSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { readUpTo } from '../readUpTo.js';
import { writeAll } from '../writeAll.js';
import { CorruptIndexError } from './errors.js';
import { hex8 } from './manifestCheck.js';

/** A file of the index as the manifest records it. */
export interface FileEntry {
  readonly name: string;
  readonly bytes: number;
  /** CRC-32 (zlib's) of the whole file, as an unsigned integer. */
  readonly crc32: number;
}

/**
 * Crash tests set `hook`: it is called at every step of a commit (between
 * chunks of a file, before each fsync and rename) and may throw there, as a
 * crash would stop the writer. Never set outside tests.
 */
export const faults: { hook?: (point: string) => void } = {};

export function faultPoint(point: string): void {
  faults.hook?.(point);
}

/** Bytes written per write call (and between fault points). */
const CHUNK = 1 << 22;

/**
 * Runs a file system call on `path`; a system error that does not name the
 * file (a write's ENOSPC, a fsync's EIO) is given its path, its code kept.
 */
export function onFile<T>(path: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    const failure = error as NodeJS.ErrnoException;
    if (typeof failure?.code === 'string' && typeof failure.message === 'string' && !failure.message.includes(path))
      failure.message = `${path}: ${failure.message}`;
    throw error;
  }
}

/** Writes `parts` end to end as `path` (created or truncated), fsync'd; returns its entry. */
export function writeWhole(path: string, name: string, parts: readonly Uint8Array[]): FileEntry {
  return onFile(path, () => writeParts(path, name, parts));
}

function writeParts(path: string, name: string, parts: readonly Uint8Array[]): FileEntry {
  const fd = openSync(path, 'w');
  let bytes = 0;
  let crc = 0;
  try {
    for (const part of parts) {
      for (let at = 0; at < part.length; at += CHUNK) {
        const chunk = part.subarray(at, Math.min(part.length, at + CHUNK));
        writeAll(fd, chunk);
        crc = crc32(chunk, crc);
        bytes += chunk.length;
        faultPoint(`write ${name} @${bytes}`);
      }
    }
    faultPoint(`fsync ${name}`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return { name, bytes, crc32: crc >>> 0 };
}

/** A typed array's bytes (a view, no copy). */
export const bytesOf = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Replaces `path` atomically: a temporary beside it, fsync'd, renamed over it, the directory fsync'd. */
export function replaceAtomically(dir: string, path: string, text: string): void {
  const temp = `${path}.tmp-${process.pid}`;
  writeWhole(temp, 'manifest.json (temporary)', [new TextEncoder().encode(text)]);
  faultPoint('rename manifest');
  onFile(path, () => renameSync(temp, path));
  faultPoint('fsync directory');
  syncDirectory(dir);
}

export function syncDirectory(dir: string): void {
  onFile(dir, () => {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  });
}

/** Reads `length` bytes at `position` of fd into `into`, all of them. */
export function readFully(fd: number, into: Uint8Array, position: number, what: string): void {
  const done = readUpTo(fd, into, position);
  if (done < into.length)
    throw new CorruptIndexError(
      what,
      `ends at byte ${position + done}, before the ${into.length} bytes expected there`,
    );
}

/** CRC-32 of an open file's first `bytes` bytes, streamed in chunks. */
export function crcOfFile(fd: number, bytes: number, what: string): number {
  const chunk = new Uint8Array(Math.min(CHUNK, Math.max(1, bytes)));
  let crc = 0;
  for (let at = 0; at < bytes; at += chunk.length) {
    const view = chunk.subarray(0, Math.min(chunk.length, bytes - at));
    readFully(fd, view, at, what);
    crc = crc32(view, crc);
  }
  return crc >>> 0;
}

/** Refuses a file whose CRC-32 is not the manifest's, naming it. */
export function checkCrc(entry: FileEntry, actual: number, path: string): void {
  if (actual !== entry.crc32) {
    throw new CorruptIndexError(
      path,
      `checksum mismatch (CRC-32 ${hex8(actual)}, the manifest records ${hex8(entry.crc32)}): the file changed after ` +
        `it was written`,
    );
  }
}

export const crcOf = (bytes: Uint8Array): number => crc32(bytes) >>> 0;
