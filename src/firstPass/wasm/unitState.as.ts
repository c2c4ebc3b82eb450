// The first pass's kernel (unitKernel.as.ts) shares this: the record layout, what
// configure() set, run()'s progress and what the text decoder found. AssemblyScript's
// module globals are one wasm global each, written by whichever module the work is in.

// Per-line record: REC_WORDS i32 words.
export const REC_WORDS: i32 = 20;
export const R_STATUS = 0; // 0 blank, 1 document, 2 for JavaScript
export const R_LINE = 1;
export const R_START = 2;
export const R_END = 3;
export const R_ID_START = 4;
export const R_ID_LEN = 5;
export const R_UTF16 = 6;
export const R_UTF8 = 7;
export const R_EMPTY = 8;
export const R_EXACT = 9; // 4 words
export const R_IDKEY = 13; // 4 words
export const R_SH_START = 17;
export const R_SH_COUNT = 18;
export const R_TOKENS = 19;

export const BLANK = 0;
export const DOCUMENT = 1;
export const FOR_JS = 2;

// Set by configure().
export let input: usize = 0;
export let inputLen: i32 = 0;
export let textField: usize = 0;
export let textFieldLen: i32 = 0;
export let idField: usize = 0;
export let idFieldLen: i32 = 0;
export let idPrefix: usize = 0;
export let idPrefixLen: i32 = 0;
// bit 0: strip a BOM on line 1; bit 1: char shingles; bit 2: the id field is required;
// bit 3: SHA-1 shingles (datasketch's sha1_hash32), bit 4: with bit 3, sha1_hash64;
// bit 5: count weighting (every window kept, repeats as elements (g, j): shingleHash.as.ts).
export let flags: i32 = 0;
export let shingleN: i32 = 5;
export let records: usize = 0;
export let recordCap: i32 = 0;
export let ids: usize = 0;
export let shingles: usize = 0;
export let norm: usize = 0;
export let starts: usize = 0;
export let table: usize = 0;

// Progress of run().
export let recordCount: i32 = 0;
export let idsUsed: i32 = 0;
export let shinglesUsed: i32 = 0;
export let lineNumber: i32 = 0;

// The current line's bounds, and what the text decoder found.
export let lineEnd: i32 = 0;
export let utf16: i32 = 0;
export let utf8: i32 = 0;
export let normLen: i32 = 0;
export let tokenCount: i32 = 0;

@inline export function at(i: i32): i32 {
  return i < lineEnd ? <i32>load<u8>(input + <usize>i) : 0;
}

@inline export function rec(r: i32, field: i32): usize {
  return records + ((<usize>(r * REC_WORDS + field)) << 2);
}
