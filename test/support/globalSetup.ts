/**
 * Vitest's global setup (vitest.config.ts), run once per `vitest run` before any test file: a folder the
 * run's test files share for fixtures that are the same for all of them (e.g. the Vite build of web/,
 * test/web/browser.ts's sharedApp), removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's shared fixture folder. */
    sharedDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'gpudedup-run-'));
  project.provide('sharedDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
