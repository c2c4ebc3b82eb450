import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readNpy } from '../../../src/formats/shards/npy.js';
import { tempDir } from '../../support/cli.js';

describe('readNpy', () => {
  /** A .npy as NumPy may write it: any version, any header length (here deliberately not a multiple of 4). */
  function npyFile(major: 1 | 2, header: string, data: Uint8Array): Buffer {
    const text = Buffer.from(header + '\n', 'latin1');
    const length = Buffer.alloc(major === 1 ? 2 : 4);
    if (major === 1) length.writeUInt16LE(text.length);
    else length.writeUInt32LE(text.length);
    return Buffer.concat([Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, major, 0]), length, text, data]);
  }

  it('reads version 1 and 2 files with unaligned data, and names a truncated one', async () => {
    const dir = tempDir();
    const data = new Uint8Array(Uint32Array.of(1, 2, 3, 4, 5, 0xffffffff).buffer);
    writeFileSync(
      join(dir, 'v1.npy'),
      npyFile(1, "{'descr': '<u4', 'fortran_order': False, 'shape': (2, 3), } ", data),
    );
    writeFileSync(join(dir, 'v2.npy'), npyFile(2, "{'descr': '<u8', 'fortran_order': False, 'shape': (3, 1), }", data));
    writeFileSync(
      join(dir, 'cut.npy'),
      npyFile(1, "{'descr': '<u8', 'fortran_order': False, 'shape': (4, 1), }", data),
    );
    const v1 = await readNpy(join(dir, 'v1.npy'));
    expect([v1.dtype, v1.rows, v1.cols, Array.from(v1.words)]).toEqual(['<u4', 2, 3, [1, 2, 3, 4, 5, 0xffffffff]]);
    const v2 = await readNpy(join(dir, 'v2.npy'));
    expect([v2.dtype, v2.rows, v2.cols, Array.from(v2.words)]).toEqual(['<u8', 3, 1, [1, 2, 3, 4, 5, 0xffffffff]]);
    await expect(readNpy(join(dir, 'cut.npy'))).rejects.toThrow(
      /cut\.npy: truncated \(header says 4×1, file holds 24 data bytes\)/,
    );
    writeFileSync(join(dir, 'short.npy'), 'NUMPY');
    await expect(readNpy(join(dir, 'short.npy'))).rejects.toThrow(/short\.npy: not a \.npy file/);
  });
});
