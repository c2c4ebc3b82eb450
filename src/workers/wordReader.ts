/** A spill file of 32-bit words (rows, shingle sets) read at word offsets, opened read-only by a stage worker. */
import { closeSync, openSync, readSync } from 'node:fs';
import type { WordReader } from './wordFiles.js';

export function openWords(path: string): WordReader {
  const fd = openSync(path, 'r');
  return {
    read(into, fromWord) {
      const bytes = new Uint8Array(into.buffer, into.byteOffset, into.byteLength);
      for (let done = 0; done < bytes.length; ) {
        const n = readSync(fd, bytes, done, bytes.length - done, fromWord * 4 + done);
        if (n === 0) throw new Error(`${path}: the spilled data ends early (the temporary file was changed)`);
        done += n;
      }
    },
    close: () => closeSync(fd),
  };
}
