import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AtomicFile } from '../../../src/formats/files/atomicFile.js';
import { tempDir } from '../../support/cli.js';

describe('AtomicFile', () => {
  it('writes the rest when the system writes only part of a buffer', async () => {
    const dir = tempDir();
    const file = await AtomicFile.create(join(dir, 'short.bin'));
    const handle = (file as unknown as { handle: { write: (...args: unknown[]) => Promise<{ bytesWritten: number }> } })
      .handle;
    const write = handle.write.bind(handle);
    // At most 3 bytes per call, as pwrite may do on a full disk.
    handle.write = (data: unknown, offset: unknown, length: unknown, position: unknown) =>
      write(data, offset, Math.min(length as number, 3), position);
    await file.write('0123456789');
    await file.write(Uint8Array.of(65, 66, 67, 68, 69));
    await file.writeAt(Uint8Array.of(97, 98, 99, 100), 2);
    await file.commit();
    expect(readFileSync(join(dir, 'short.bin'), 'latin1')).toBe('01abcd6789ABCDE');
  });
});
