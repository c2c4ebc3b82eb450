import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every test file's temporary directories are removed when it ends (test/support/tempDirs.ts).
    setupFiles: ['test/support/cleanup.ts'],
    // Once per run: a folder for fixtures every file shares, such as the Vite build of web/ (test/support/globalSetup.ts).
    globalSetup: ['test/support/globalSetup.ts'],
    // Two cores: run files on at most two workers, and give WebGPU (lavapipe) and CLI tests room.
    maxWorkers: 2,
    // A worker runs its files one after another in one module graph instead of a fresh one each: the shared
    // modules (src/, vitest, hyparquet…) are imported once a worker, not once a file.
    isolate: false,
    // The longest files first (test/support/sequencer.ts): no minute-long file starts last.
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
