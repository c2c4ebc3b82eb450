import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeAll } from '../src/writeAll.js';
import { tempDir } from './support/tempDirs.js';

describe('writeAll', () => {
  const content = Uint8Array.from({ length: 3 << 20 }, (_, i) => (i * 37) % 251);

  it('writes every byte at the current position, one write after another', () => {
    const file = join(tempDir(), 'appended');
    const fd = openSync(file, 'w');
    try {
      writeAll(fd, content.subarray(0, 1 << 20));
      writeAll(fd, content.subarray(1 << 20));
    } finally {
      closeSync(fd);
    }
    // Buffer.equals, not toEqual: vitest's deep equality takes seconds over 3 MiB of elements.
    expect(readFileSync(file).equals(content)).toBe(true);
  });

  it('writes at a position, leaving the bytes around it as they were', () => {
    const file = join(tempDir(), 'positioned');
    writeFileSync(file, new Uint8Array(100).fill(7));
    const fd = openSync(file, 'r+');
    try {
      writeAll(fd, content.subarray(0, 20), 40);
    } finally {
      closeSync(fd);
    }
    const written = new Uint8Array(readFileSync(file));
    expect(written.subarray(40, 60)).toEqual(content.subarray(0, 20));
    expect([...written.subarray(0, 40), ...written.subarray(60)].every((b) => b === 7)).toBe(true);
  });
});
