/**
 * The .npy header (format version 1.0) of a signature array, and the dtype and
 * columns a signature file of given parameters has. Browser-safe (no `node:`
 * import): the CLI's writer (npy.ts) and the tab's signatures download share it,
 * so the two write the same bytes.
 * https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
 */
import { rowWords } from '../../bands/signatureMatrix.js';
import type { SignatureParams } from '../../signatures/params.js';
import { packsFingerprints } from './simhashNpy.js';

export type NpyDtype = '<u4' | '<u8';

export const NPY_MAGIC = Uint8Array.of(0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59); // \x93NUMPY
/** Magic + version + header length + header text: a multiple of 64 with space for any shape. */
export const NPY_HEADER_BYTES = 128;

export function npyHeader(dtype: NpyDtype, rows: number, cols: number): Uint8Array {
  const dict = `{'descr': '${dtype}', 'fortran_order': False, 'shape': (${rows}, ${cols}), }`;
  const textLength = NPY_HEADER_BYTES - 10;
  const text = dict.padEnd(textLength - 1, ' ') + '\n';
  const out = new Uint8Array(NPY_HEADER_BYTES);
  out.set(NPY_MAGIC, 0);
  out[6] = 1; // version 1.0
  out[7] = 0;
  out[8] = textLength & 0xff;
  out[9] = textLength >> 8;
  out.set(new TextEncoder().encode(text), 10);
  return out;
}

/** uint64 slots, or uint32 (32-bit and b-bit rows); SimHash's uint64 fingerprints (simhashNpy.ts). */
export function signatureDtype(params: Pick<SignatureParams, 'slotBits' | 'scheme'>): NpyDtype {
  return params.slotBits === 64 || packsFingerprints(params) ? '<u8' : '<u4';
}

/**
 * Columns of the .npy: k slots, or with b-bit slots the words of a packed row (band keys, then slots); SimHash: one,
 * the fingerprint.
 */
export function signatureColumns(params: Pick<SignatureParams, 'slotBits' | 'k' | 'bandKeys' | 'scheme'>): number {
  if (packsFingerprints(params)) return 1;
  return params.slotBits >= 32 ? params.k : rowWords(params.k, params.slotBits, params.bandKeys);
}
