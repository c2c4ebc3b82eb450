/** A file of 32-bit words read at word offsets (the spilled shingle sets), opened read-only by an exact worker. */
import { closeSync, openSync, readSync } from 'node:fs';
import type { WordReader } from '../../verify/exactWorkers.js';

export function openWords(path: string): WordReader {
  const fd = openSync(path, 'r');
  return {
    read(into, fromWord) {
      const bytes = new Uint8Array(into.buffer, into.byteOffset, into.byteLength);
      for (let done = 0; done < bytes.length; ) {
        const n = readSync(fd, bytes, done, bytes.length - done, fromWord * 4 + done);
        if (n === 0) throw new Error(`${path}: the spilled shingle sets end early (the temporary file was changed)`);
        done += n;
      }
    },
    close: () => closeSync(fd),
  };
}
