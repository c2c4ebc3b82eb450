/**
 * Garbage collected now, where the runtime lets a program ask: `globalThis.gc`, which the command line's child
 * process has (cli/heapFlags.ts's GC_FLAG, inherited by its worker threads); elsewhere (the library, a tab) nothing.
 *
 * Why ask: a thread started with a large initial old generation (HEAP_FLAG) seldom collects while its heap stays
 * small, and a large buffer it dropped (the shared band keys, the shingle sets moved to their file, a worker's blocks
 * of rows) is freed only when its small wrapper is, in every thread that saw it. A 1 M dedup still held about
 * 0.25 GiB of them when verification began, its peak.
 */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Asks a worker thread to collect (its handler answers with collected()). */
export interface CollectRequest {
  readonly type: 'collect';
}

/** The worker's side of a CollectRequest. */
export function collected(): { response: object; transfer: ArrayBuffer[] } {
  collectGarbage();
  return { response: {}, transfer: [] };
}
