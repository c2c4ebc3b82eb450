/** Typed-array helpers every stage uses. Browser-safe. */

/** A copy of `from` with room for `length` elements (cut to it when shorter). */
export function grown<T extends Uint8Array | Uint32Array | Int32Array | Float64Array>(from: T, length: number): T {
  const to = new (from.constructor as new (n: number) => T)(length);
  to.set(from.subarray(0, Math.min(from.length, length)));
  return to;
}
