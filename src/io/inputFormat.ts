/**
 * What an input file is, from its first bytes and its name (no Node imports,
 * so the browser app can use the same rules). Content wins over the name:
 * a gzip or zstd stream is decompressed whatever the file is called, and a
 * file starting with `PAR1` is Parquet.
 */

export type Compression = 'gzip' | 'zstd' | 'none';

/** Bytes needed to tell the formats apart (the longest magic). */
export const MAGIC_BYTES = 4;

export function compressionOf(head: Uint8Array): Compression {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head.length >= 4 && head[0] === 0x28 && head[1] === 0xb5 && head[2] === 0x2f && head[3] === 0xfd) return 'zstd';
  return 'none';
}

/** `PAR1`: the magic at both ends of every Parquet file. */
export function isParquetHead(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x41 && head[2] === 0x52 && head[3] === 0x31;
}

export function isParquetName(name: string): boolean {
  return /\.parquet$/i.test(name);
}
