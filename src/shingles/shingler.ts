/** How the signing pipeline shingles a batch; browser-safe (the Node worker pool is shinglePool.ts). */
import { shingleDocument, type ShingleOptions } from './shingles.js';

export interface Shingler {
  shingleAll(texts: readonly string[], options: ShingleOptions): Promise<Uint32Array[]>;
  destroy(): void;
}

/** Shingles on the calling thread: the default, and the browser's. */
export const INLINE_SHINGLER: Shingler = {
  shingleAll: async (texts, options) => texts.map((text) => shingleDocument(text, options)),
  destroy: () => undefined,
};
