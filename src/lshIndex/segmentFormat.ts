/**
 * A segment's files (Node), written once and never modified:
 *
 *   NAME.ids      (count + 1) uint32 byte offsets, then the ids' UTF-8
 *   NAME.sig      count rows of k slots (uint32 or uint64, little-endian)
 *   NAME.bands    per band, its `banded` entries (key lo, key hi, row) as
 *                 uint32 triples sorted by the 64-bit key (hi, lo): binary search
 *   NAME.sets     (optional) shingle sets as (lo, hi) uint32 pairs end to end,
 *                 then (count + 1) float64 offsets in shingles
 *   NAME.docs.parquet  the document table: id, row, length, exact_key, empty
 *   NAME.bands.idx  per band, per block of 256 entries of .bands: the block's
 *                 first key (lo, hi) and its CRC-32, as uint32 triples: a lookup
 *                 searches this in memory, then reads (and checks) one block
 *   NAME.sig.crc, NAME.sets.crc  CRC-32 of each 64 KiB block of .sig and .sets
 *                 (uint32 each), so a read can check just the blocks it touches
 *   NAME.bits     (optional, with .sets of Jaccard's schemes) each row's shingle
 *                 bitmap (shingleBitmaps.ts: BITMAP_WORDS uint32 a row), read
 *                 whole by a query's forest; an index written before has none,
 *                 and its forests derive them from .sets (issue 39)
 *
 * Empty documents (no tokens) have a row but no band entries: never candidates.
 */
import type { FileEntry } from './files.js';

/** A segment as the manifest records it. */
export interface SegmentRecord {
  readonly name: string;
  readonly count: number;
  /** Rows with band entries (the non-empty documents). */
  readonly banded: number;
  readonly files: {
    readonly ids: FileEntry;
    readonly signatures: FileEntry;
    readonly bands: FileEntry;
    /** The first key and CRC-32 of each block of BAND_BLOCK entries of .bands. */
    readonly bandIndex: FileEntry;
    readonly sets?: FileEntry;
    readonly documents: FileEntry;
    /** CRC-32 of each BLOCK bytes of .sig and .sets. */
    readonly signatureBlocks: FileEntry;
    readonly setBlocks?: FileEntry;
    /** Each row's shingle bitmap, where sets are stored (segments written since issue 39). */
    readonly bitmaps?: FileEntry;
  };
}

/** Bytes per checksummed block of the signature and set files. */
export const BLOCK = 1 << 16;

/**
 * Entries per block of a band table (3 KiB): one read per band per lookup, the first time (diskSegment.ts keeps blocks
 * read).
 */
export const BAND_BLOCK = 256;
