/**
 * Streaming zstd decompression with fzstd (pure JS: Node 20's zlib has no
 * zstd, and the browser app can reuse it). Memory stays at a window of the
 * stream; concatenated frames (as `zstd` and gpudedup write) are read in turn.
 */
import { Decompress } from 'fzstd';

export async function* zstdDecompressed(chunks: AsyncIterable<Uint8Array>, path: string): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  const stream = new Decompress((data) => {
    out.push(data);
  });
  const push = (data: Uint8Array, final: boolean): void => {
    try {
      stream.push(data, final);
    } catch (error) {
      throw new Error(`${path}: not a valid zstd stream (${(error as Error).message})`);
    }
  };
  for await (const chunk of chunks) {
    push(chunk, false);
    while (out.length > 0) yield out.shift()!;
  }
  push(new Uint8Array(0), true);
  while (out.length > 0) yield out.shift()!;
}
