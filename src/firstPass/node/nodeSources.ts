/** How a first-pass worker thread opens the files it is handed (src/firstPass/ports.ts): by path, through node:fs. */
import type { FirstPassSources } from '../ports.js';
import { localParquetFile } from '../../io/localParquetFile.js';
import { openDecompressed } from '../../io/readDocuments.js';

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
};

function pathOf(source: string | Blob): string {
  if (typeof source !== 'string') throw new TypeError('a Node first-pass worker opens files by path');
  return source;
}
