/**
 * A file of 32-bit words read at word offsets: how worker threads read the spill files (rows, shingle sets) by their
 * paths. No Node imports here: Node's reader is wordReader.ts.
 */
export interface WordReader {
  /** Fills `into` with words [fromWord, fromWord + into.length). */
  read(into: Uint32Array, fromWord: number): void;
  close(): void;
}

export type OpenWords = (path: string) => WordReader;
