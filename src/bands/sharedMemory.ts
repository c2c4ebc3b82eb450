/**
 * Arrays that worker threads can read where they lie: backed by a SharedArrayBuffer where the platform has one (Node;
 * a tab only when cross-origin isolated), else by an ordinary buffer. Posting one to a worker shares it, never
 * copies it; it must never be in a transfer list.
 */
export function sharedMemoryAvailable(): boolean {
  return typeof SharedArrayBuffer === 'function';
}

/** `length` zeroed words, in shared memory where there is some. */
export function sharedWords(length: number): Uint32Array {
  return sharedMemoryAvailable() ? new Uint32Array(new SharedArrayBuffer(4 * length)) : new Uint32Array(length);
}

/**
 * Node 20 posts a SharedArrayBuffer's length in 32 bits: a worker handed one of 4 GiB or more sees it cut to its
 * length mod 4 GiB, and reads past that end as undefined (a silently wrong result, not an error). Past this, the
 * stages that would share an array read it on the thread that holds it instead.
 */
export const MAX_POSTED_SHARED_BYTES = 2 ** 32 - 1;

/** Whether worker threads can read `array` where it lies: shared, and small enough to post whole (see above). */
export function isShared(array: ArrayBufferView): boolean {
  return (
    sharedMemoryAvailable() &&
    array.buffer instanceof SharedArrayBuffer &&
    array.buffer.byteLength <= MAX_POSTED_SHARED_BYTES
  );
}
