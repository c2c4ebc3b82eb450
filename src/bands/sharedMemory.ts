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

export function isShared(array: ArrayBufferView): boolean {
  return sharedMemoryAvailable() && array.buffer instanceof SharedArrayBuffer;
}
