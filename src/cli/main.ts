#!/usr/bin/env node
/** The `gpudedup` command line. Each command lives in its own module. */
import './heapFlags.js'; // first: before anything allocates
import { readFileSync } from 'node:fs';
import { adoptParentTerminal, isFilteredChild, runFiltered } from './quietNative.js';
import { installSignalCleanup } from '../formats/files/temporaries.js';
import { runCommandLine } from './commandLine.js';
import { runsInChild } from './processRoute.js';

const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

// `gpudedup … | head` closes the pipe early: stop quietly, as other command-line tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

if (isFilteredChild()) adoptParentTerminal();
else if (process.env.GPUDEDUP_DEBUG !== '1' && runsInChild(process.argv)) {
  process.exitCode = await runFiltered();
  process.exit();
}

// The process doing the work: SIGINT, SIGTERM and SIGHUP remove its temporaries, then end it with 130, 143 or 129.
// `serve` handles them itself: it stops accepting, finishes the write in flight, closes the index and exits 0.
if (process.argv[2] !== 'serve') installSignalCleanup();

const status = await runCommandLine(process.argv, version);
if (status !== 0) process.exitCode = status;
