#!/usr/bin/env node
/** The `gpudedup` command line. Each command lives in its own module. */
import './heapFlags.js'; // first: before anything allocates
import { readFileSync } from 'node:fs';
import { adoptParentTerminal, isFilteredChild, runFiltered } from './quietNative.js';
import { installSignalCleanup } from '../formats/files/temporaries.js';
import { runCommandLine } from './commandLine.js';
import { noGpuDeviceReason } from '../signatures/gpuDevices.js';

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

/**
 * Commands that may open a GPU, whose native libraries print harmless warnings (see quietNative.ts). `doctor` and
 * `bench` start Dawn whatever --backend says; the others with `--backend webgpu`, or with `auto` where a GPU device may
 * exist: on a machine without one `auto` signs on the CPU without starting Dawn (gpuDevices.ts), so the command runs
 * in this process, with no filtering parent to start.
 */
function mayOpenGpu(argv: readonly string[]): boolean {
  const command = argv[2];
  let backend = 'auto'; // the last one given, as commander takes it
  for (const [i, arg] of argv.entries())
    if (argv[i - 1] === '--backend' || arg.startsWith('--backend=')) backend = arg.replace(/^--backend=/, '');
  // `index create|add` and `query` sign documents; `index stats|remove|compact` never do.
  const signs =
    ['sign', 'dedup', 'doctor', 'bench', 'query'].includes(command) ||
    (command === 'index' && ['create', 'add'].includes(argv[3]));
  if (!signs || argv.includes('--help') || argv.includes('-h')) return false;
  if (command === 'doctor' || command === 'bench') return true;
  return backend === 'auto' ? noGpuDeviceReason() === undefined : backend !== 'cpu';
}

if (isFilteredChild()) adoptParentTerminal();
else if (process.env.GPUDEDUP_DEBUG !== '1' && mayOpenGpu(process.argv)) {
  process.exitCode = await runFiltered();
  process.exit();
}

// The process doing the work: SIGINT, SIGTERM and SIGHUP remove its temporaries, then end it with 130, 143 or 129.
// `serve` handles them itself: it stops accepting, finishes the write in flight, closes the index and exits 0.
if (process.argv[2] !== 'serve') installSignalCleanup();

const status = await runCommandLine(process.argv, version);
if (status !== 0) process.exitCode = status;
