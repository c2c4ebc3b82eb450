/** A spill file of 32-bit words (rows, shingle sets) read at word offsets, opened read-only by a stage worker. */
import { closeSync, openSync } from 'node:fs';
import { readUpTo } from '../readUpTo.js';
import type { WordReader } from './wordFiles.js';

export function openWords(path: string): WordReader {
  const fd = openSync(path, 'r');
  return {
    read(into, fromWord) {
      const bytes = new Uint8Array(into.buffer, into.byteOffset, into.byteLength);
      if (readUpTo(fd, bytes, fromWord * 4) < bytes.length)
        throw new Error(`${path}: the spilled data ends early (the temporary file was changed)`);
    },
    close: () => closeSync(fd),
  };
}
