/** Writes to an open file through node:fs. */
import { writeSync } from 'node:fs';

/**
 * Writes all of `bytes` to fd, at `position` or, without one, at the file's current position: a write may take fewer
 * bytes than asked (a full disk, a signal) without an error, so the rest is written after it.
 */
export function writeAll(fd: number, bytes: Uint8Array, position?: number): void {
  for (let done = 0; done < bytes.length; ) {
    const n =
      position === undefined
        ? writeSync(fd, bytes, done, bytes.length - done)
        : writeSync(fd, bytes, done, bytes.length - done, position + done);
    if (n === 0) throw new Error('write made no progress');
    done += n;
  }
}
