/** A segment's files: the format (segmentFormat.ts), the writer and the reader, from one place. */
export { BAND_BLOCK, BLOCK, type SegmentRecord } from './segmentFormat.js';
export { SegmentWriter, radixSortByKey, exactKeyHex } from './segmentWriter.js';
export { DiskSegment, readChecked } from './diskSegment.js';
