/**
 * The tab's signatures download: the .npy that `gpudedup sign` writes for the
 * same files and settings, byte for byte (header included; the sidecar's ids
 * are clusters.csv's first column, in the same order). One row per input
 * document: its exact group's row (a document and its exact duplicates have
 * the same normalized text, hence the same signature), all ones when it is
 * empty, as `sign` writes it. With a datasketch scheme the rows are the
 * `hashvalues` datasketch's `MinHash(..., hashvalues=row)` takes.
 */
import { rowStart, rowWords, type SignatureMatrix } from '../src/bands/signatureMatrix.js';
import type { DocumentTable } from '../src/exact/documentTable.js';
import { npyHeader, signatureColumns, signatureDtype } from '../src/formats/shards/npyHeader.js';
import { EMPTY_SLOT_WORD } from '../src/signatures/backend.js';
import type { SignatureParams } from '../src/signatures/params.js';

/** Rows per Blob part: a few MiB at a time, never the whole array in one buffer. */
const PART_BYTES = 4 << 20;

export function signaturesNpy(table: DocumentTable, signatures: SignatureMatrix, params: SignatureParams): Blob {
  const width = rowWords(signatures.k, signatures.slotBits, signatures.bands);
  const rowsPerPart = Math.max(1, Math.floor(PART_BYTES / (4 * width)));
  const parts: BlobPart[] = [npyHeader(signatureDtype(params), table.documents, signatureColumns(params)) as BlobPart];
  for (let first = 0; first < table.documents; first += rowsPerPart) {
    const count = Math.min(rowsPerPart, table.documents - first);
    const words = new Uint32Array(count * width);
    for (let i = 0; i < count; i++) {
      const group = table.group(first + i);
      if (group < 0) words.fill(EMPTY_SLOT_WORD, i * width, (i + 1) * width);
      else {
        const at = rowStart(signatures, group, width);
        words.set(signatures.words.subarray(at, at + width), i * width);
      }
    }
    parts.push(words as BlobPart);
  }
  return new Blob(parts, { type: 'application/octet-stream' });
}
