/**
 * A local file as a hyparquet AsyncBuffer: one open handle, positioned reads,
 * bytes counted for progress (capped at the file's size: the footer is read
 * more than once).
 */
import { open } from 'node:fs/promises';
import type { AsyncBuffer } from 'hyparquet';

export async function localParquetFile(
  path: string,
  countBytes: (n: number) => void,
): Promise<{ file: AsyncBuffer; close(): Promise<void> }> {
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  let counted = 0;
  const file: AsyncBuffer = {
    byteLength: size,
    async slice(start: number, end: number = size): Promise<ArrayBuffer> {
      const bytes = new Uint8Array(Math.max(0, Math.min(end, size) - start));
      for (let done = 0; done < bytes.length; ) {
        const { bytesRead } = await handle.read(bytes, done, bytes.length - done, start + done);
        if (bytesRead === 0) throw new Error(`${path}: file ended at byte ${start + done} (truncated while reading?)`);
        done += bytesRead;
      }
      const next = Math.min(size, counted + bytes.length);
      countBytes(next - counted);
      counted = next;
      return bytes.buffer;
    },
  };
  return { file, close: () => handle.close() };
}
