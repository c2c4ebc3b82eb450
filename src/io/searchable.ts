/** Byte search at memchr speed where Node's Buffer is there. No Node imports: the tab's code loads it. */

/** Node's Buffer, where there is one: its indexOf of a byte is memchr, several times faster than a Uint8Array's. */
const NodeBuffer = (
  globalThis as { Buffer?: { from(buffer: ArrayBufferLike, byteOffset: number, length: number): Uint8Array } }
).Buffer;

/** The same bytes, to search: a Buffer over them in Node (no copy), else themselves (the tab). */
export function searchable(bytes: Uint8Array): Uint8Array {
  return NodeBuffer === undefined ? bytes : NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}
