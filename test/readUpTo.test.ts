import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readUpTo } from '../src/readUpTo.js';
import { tempDir } from './support/tempDirs.js';

describe('readUpTo', () => {
  const file = join(tempDir(), 'bytes');
  const content = Uint8Array.from({ length: 1000 }, (_, i) => (i * 37) % 251);
  writeFileSync(file, content);

  it('reads the bytes asked for at a position, and fewer only where the file ends', () => {
    const fd = openSync(file, 'r');
    try {
      const into = new Uint8Array(300);
      expect(readUpTo(fd, into, 100)).toBe(300);
      expect(into).toEqual(content.subarray(100, 400));
      expect(readUpTo(fd, into, 900)).toBe(100);
      expect(into.subarray(0, 100)).toEqual(content.subarray(900));
      expect(readUpTo(fd, into, 1000)).toBe(0);
      const part = new Uint8Array(300).fill(7);
      expect(readUpTo(fd, part, 10, 20)).toBe(20);
      expect(part.subarray(0, 20)).toEqual(content.subarray(10, 30));
      expect(part[20]).toBe(7); // nothing past `length` is written
    } finally {
      closeSync(fd);
    }
  });
});
