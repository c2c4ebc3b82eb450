// The tests' temporary directories go when their file ends: tempDir registers each, the setup file
// (test/support/cleanup.ts, named in vitest.config.ts) removes them all in afterAll.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from './tempDirs.js';

describe('test temporary directories', () => {
  it('are removed with their contents by removeTempDirs', () => {
    const dirs = [tempDir(), tempDir('gpudedup-other-')];
    writeFileSync(join(dirs[0], 'big.bin'), Buffer.alloc(1024));
    removeTempDirs();
    for (const dir of dirs) expect(existsSync(dir)).toBe(false);
  });

  it('are removed after every test file: vitest runs the cleanup as a setup file', () => {
    expect(readFileSync('vitest.config.ts', 'utf8')).toMatch(/setupFiles: \['test\/support\/cleanup\.ts'\]/);
  });
});
