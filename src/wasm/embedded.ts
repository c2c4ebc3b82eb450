/**
 * The embedded WebAssembly modules (base64 in the generated kernels.generated.ts
 * beside each kernel's .wat): decoding, synchronous instantiation, and growing
 * an instance's memory. No Node imports: browsers and worker threads load the
 * kernels exactly as Node does.
 */
const PAGE = 65536;

export function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A new instance (its own memory) of an embedded module; throws where WebAssembly is missing or rejects it. */
export function instantiateEmbedded(base64: string): WebAssembly.Instance {
  return new WebAssembly.Instance(new WebAssembly.Module(decodeBase64(base64)), {});
}

/** Grows `memory` to hold at least `bytes`. */
export function reserveMemory(memory: WebAssembly.Memory, bytes: number): void {
  const have = memory.buffer.byteLength;
  if (bytes > have) memory.grow(Math.ceil((bytes - have) / PAGE));
}
