/** A segment's files: the format (segmentFormat.ts), the writer and the reader, from one place. */
export { BAND_BLOCK, BLOCK, type SegmentRecord } from './segmentFormat.js';
export { SegmentWriter, exactKeyHex, writeMemorySegment } from './segmentWriter.js';
export { radixSortByKey } from './bandSort.js';
export { DiskSegment } from './diskSegment.js';
export { readChecked } from './checkedFile.js';
