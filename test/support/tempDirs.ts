/**
 * Temporary directories for tests, removed when the test file ends
 * (test/support/cleanup.ts, a vitest setup file, calls removeTempDirs in
 * afterAll), whether its tests pass or fail.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Set<string>();

export function tempDir(prefix = 'gpudedup-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}
