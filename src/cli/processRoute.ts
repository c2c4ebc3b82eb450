/**
 * Which commands main.ts runs in a child process (quietNative.ts's runFiltered), whose command line carries the heap
 * flags of heapFlags.ts: they hold there for the main thread too, where set at run time they hold only in part.
 */
import { noGpuDeviceReason } from '../signatures/gpuDevices.js';

/**
 * Commands that may open a GPU, whose native libraries print harmless warnings (see quietNative.ts). `doctor` and
 * `bench` start Dawn whatever --backend says; the others with `--backend webgpu`, or with `auto` where a GPU device may
 * exist: on a machine without one `auto` signs on the CPU without starting Dawn (gpuDevices.ts).
 */
export function mayOpenGpu(argv: readonly string[], gpuAbsent: () => string | undefined = noGpuDeviceReason): boolean {
  const command = argv[2];
  let backend = 'auto'; // the last one given, as commander takes it
  for (const [i, arg] of argv.entries())
    if (argv[i - 1] === '--backend' || arg.startsWith('--backend=')) backend = arg.replace(/^--backend=/, '');
  // `index create|add` and `query` sign documents; `index stats|remove|compact` never do.
  const signs =
    ['sign', 'dedup', 'doctor', 'bench', 'query'].includes(command) ||
    (command === 'index' && ['create', 'add'].includes(argv[3]));
  if (!signs || asksHelp(argv)) return false;
  if (command === 'doctor' || command === 'bench') return true;
  return backend === 'auto' ? gpuAbsent() === undefined : backend !== 'cpu';
}

/**
 * `sign --shard`, GPU or not: its main thread writes the shard's Parquet columns from the workers' rows, and with the
 * old generation started small (the flag set at run time) it marked and compacted its heap about 50 times a 1 M half
 * where the flag on the command line leaves 11 (about 1 CPU-s of the half's 20).
 */
export function writesShard(argv: readonly string[]): boolean {
  return argv[2] === 'sign' && !asksHelp(argv) && argv.some((arg) => arg === '--shard' || arg.startsWith('--shard='));
}

/** Whether this command line runs in a child process (runFiltered) rather than in this one. */
export function runsInChild(argv: readonly string[], gpuAbsent: () => string | undefined = noGpuDeviceReason): boolean {
  return writesShard(argv) || mayOpenGpu(argv, gpuAbsent);
}

function asksHelp(argv: readonly string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}
