/** Typed-array helpers every stage uses. Browser-safe. */

/** A copy of `from` with room for `length` elements (cut to it when shorter). */
export function grown<T extends Uint8Array | Uint32Array | Int32Array | Float64Array>(from: T, length: number): T {
  const to = new (from.constructor as new (n: number) => T)(length);
  to.set(from.subarray(0, Math.min(from.length, length)));
  return to;
}

/** A port whose other end is closed: what is transferred to it is dropped. */
let dropPort: MessagePort | undefined;

/**
 * Frees the buffers' memory now rather than at the thread's next full collection: transferred to a port whose other
 * end is closed, it is detached (every view of it reads as empty from then on) and its memory returned at once.
 * Buffers a worker's answer brings are counted against the thread's external memory, and every 64 MiB of it that
 * piles up starts a full collection (about 70 of them on a 1 M dedup's main thread, most of its time): freed here, the
 * count falls again. A shared buffer (never transferred) or an empty one is left as it is. For buffers nobody reads
 * again only; several in one call cost one message.
 */
export function freeNow(...buffers: ArrayBufferLike[]): void {
  if (typeof MessageChannel === 'undefined') return;
  // Each once (a transfer list names a buffer once), in one message.
  const free = [...new Set(buffers)].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer && b.byteLength > 0);
  if (free.length === 0) return;
  if (dropPort === undefined) {
    const channel = new MessageChannel();
    channel.port2.close();
    dropPort = channel.port1;
    (dropPort as { unref?: () => void }).unref?.(); // Node: the port alone does not keep a process alive
  }
  dropPort.postMessage(null, free);
}
