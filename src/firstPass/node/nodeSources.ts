/** How a first-pass worker thread opens the files it is handed (src/firstPass/ports.ts): by path, through node:fs. */
import { closeSync, openSync } from 'node:fs';
import type { FirstPassSources } from '../ports.js';
import { localParquetFile } from '../../io/localParquetFile.js';
import { openDecompressed } from '../../io/readDocuments.js';
import { readUpTo } from '../../readUpTo.js';

export const NODE_SOURCES: FirstPassSources = {
  async readWhole(source) {
    const chunks: Buffer[] = [];
    for await (const chunk of await openDecompressed(pathOf(source), () => undefined)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  },
  async openParquet(source) {
    const { file, close } = await localParquetFile(pathOf(source), () => undefined);
    return Object.assign(file, { close });
  },
  // On the worker's own thread: it has nothing else to do meanwhile, and the bytes are in the page cache mostly.
  async readAt(source, position, length) {
    const path = pathOf(source);
    const bytes = Buffer.allocUnsafeSlow(length);
    let fd: number | undefined;
    try {
      fd = openSync(path, 'r');
      return bytes.subarray(0, readUpTo(fd, bytes, position));
    } catch (error) {
      throw new Error(`${path}: cannot read it (${(error as Error).message})`);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  },
};

function pathOf(source: string | Blob): string {
  if (typeof source !== 'string') throw new TypeError('a Node first-pass worker opens files by path');
  return source;
}
