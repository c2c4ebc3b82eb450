/**
 * Imported first by the command line, before anything allocates: V8 starts a
 * thread's old generation small and, while the live heap stays small (the
 * first pass keeps its tables in typed arrays), collects it hundreds of times
 * a run, each time the buffers a unit brings and drops have piled up: 4 of the
 * 14 CPU-seconds of a 1 M dedup's main thread, and as much again in the
 * workers. A larger initial old generation lets garbage be collected young.
 * It is a threshold, not a reservation: nothing is allocated for it. Set at
 * run time it holds fully for the worker threads started after it and in part
 * for this one; the child process that runs a command which may open a GPU,
 * or `sign --shard` (processRoute.ts), gets it on its command line, where it
 * holds for all.
 */
import { setFlagsFromString } from 'node:v8';

/** Given on the command line (quietNative.ts's child process gets it so), it holds for the main thread too. */
export const HEAP_FLAG = '--initial-old-space-size=256';

/**
 * Given on the child's command line too: `globalThis.gc` on every thread, so that the stages after dedup's first pass
 * begin by collecting the large buffers the stages before them dropped (src/workers/collect.ts).
 */
export const GC_FLAG = '--expose-gc';

setFlagsFromString(HEAP_FLAG);
