/** Positional reads of an open file through node:fs. */
import { readSync } from 'node:fs';

/**
 * Reads `length` bytes at `position` of fd into `into` (from its start), looping over short reads, fewer only where
 * the file ends first: the bytes read.
 */
export function readUpTo(fd: number, into: Uint8Array, position: number, length = into.length): number {
  let done = 0;
  for (let n = -1; done < length && n !== 0; done += n) n = readSync(fd, into, done, length - done, position + done);
  return done;
}
