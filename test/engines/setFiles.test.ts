import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FilePacker, FileSetReader } from '../../src/engines/setFiles.js';
import { tempDir } from '../support/tempDirs.js';

describe('the exact pass’s sets past its memory budget, in a file', () => {
  it('in a file read back in blocks ahead (slot 0) and a set at a time (slot 1), in any order: each set as written', () => {
    // Sets of 0 … 40 words, read with blocks of 64 words: sets across a block's end, longer than a block, empty.
    const written = Array.from({ length: 200 }, (_, i) =>
      Uint32Array.from({ length: (i * 7) % 41 }, (_, w) => i * 100 + w),
    );
    const packer = new FilePacker(join(tempDir(), 'blocks.u32'));
    for (const set of written) packer.add(set);
    const [part] = packer.finish();
    const reader = new FileSetReader(64);
    const shuffled = written.map((_, i) => (i * 89) % 200);
    try {
      for (const order of [written.map((_, i) => i), written.map((_, i) => 199 - i), shuffled])
        for (const i of order) {
          const lead = reader.read(part, i, 0);
          const other = reader.read(part, shuffled[i], 1);
          expect(Array.from(lead)).toEqual(Array.from(written[i]));
          expect(Array.from(other)).toEqual(Array.from(written[shuffled[i]]));
        }
    } finally {
      reader.close();
    }
  });
});
