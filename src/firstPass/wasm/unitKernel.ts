/**
 * The first pass's document kernel (unitKernel.as.ts, AssemblyScript): a JSON
 * Lines unit's bytes in, per line its id, keys, counts and deduplicated
 * shingle set out, with no JavaScript per document; or one text's keys and
 * shingles (other inputs, whose readers stay in JavaScript). No Node imports:
 * worker threads, Web Workers and this thread load it the same way.
 *
 * Memory, above the kernel's static data: the input, the field names and id
 * prefix, then per call the records, ids, shingles and the scratch of one
 * document (its normalized text, token starts, a hash table), each sized from
 * the input's length so that no document can overflow them.
 */
import { idFieldRequired, type ReadOptions } from '../../io/documents.js';
import type { ShingleHash } from '../../shingles/sha1Shingles.js';
import type { ShingleOptions } from '../../shingles/shingles.js';
import { LazyKernel, reserveMemory } from '../../wasm/embedded.js';
import { UNIT_KERNEL_WASM } from './kernels.generated.js';

/**
 * What the kernel can do for a run: shingles of lowercased text, word or char windows, FNV-1a or SHA-1 (the datasketch
 * schemes), keep first or longest.
 */
export interface KernelSetup {
  readonly textField: string;
  readonly idField: string;
  /** Any id field but the default must be in every document. */
  readonly idRequired: boolean;
  readonly char: boolean;
  readonly n: number;
  /**
   * Each shingle's value (sha1Shingles.ts): FNV-1a 64 mod P, or datasketch's sha1_hash32 / sha1_hash64 of the window
   * without a word window's trailing space.
   */
  readonly hash: ShingleHash;
  /** Count weighting (countWeights.ts): every window kept, a repeat as its next element (g, j). */
  readonly counts?: boolean;
}

/**
 * The kernel's settings for JSON lines read for their sets (no keep score: documentBuilder's kernelSetupOf adds it), or
 * undefined where a setting needs the TypeScript path.
 */
export function shingleKernelSetup(
  shingle: ShingleOptions,
  read: Pick<ReadOptions, 'textField' | 'idField'>,
): KernelSetup | undefined {
  const { nfkc, stripPunctuation } = shingle.normalize;
  // idf weights come from a table the kernel does not hold: the TypeScript path expands its sets (shingles.ts).
  if (nfkc || stripPunctuation || shingle.mode === 'auto' || shingle.weights === 'idf') return undefined;
  if (unitKernelUnavailable()) return undefined;
  return {
    textField: read.textField,
    idField: read.idField,
    idRequired: idFieldRequired(read.idField),
    char: shingle.mode === 'char',
    n: shingle.n,
    hash: shingle.hash ?? 'fnv1a64',
    ...(shingle.weights === 'counts' ? { counts: true } : {}),
  };
}

/** Records per call: the kernel stops there and is called again for the rest. */
const RECORD_CAP = 4096;
const REC_WORDS = 20;
/** Memory kept between units; an instance grown past this by a huge unit is dropped after it. */
const KEEP_BYTES = 256 << 20;
/**
 * The most memory one call may lay out (36–52 bytes per input byte, most of it the
 * shingle table, kept a quarter full): a longer line (past ≈ 20 MiB) or text takes the TypeScript path, far inside wasm32's
 * 4 GiB and the 32-bit addresses the kernel computes with.
 */
const MAX_LAYOUT_BYTES = 1 << 30;

/** A record's STATUS: ForJs, JavaScript reads the line (anything the kernel is not sure of). */
export const LineStatus = { Blank: 0, Document: 1, ForJs: 2 } as const;

/** One line's record, read out of the kernel's memory (valid until its next call). */
export interface KernelRecords {
  readonly count: number;
  readonly words: Int32Array;
  /** The ids' UTF-8 bytes, each record's at [ID_START, ID_START + ID_LEN). */
  readonly ids: Uint8Array;
  /** The shingle sets, (lo, hi) words; record r's at [2·SH_START, 2·(SH_START + SH_COUNT)). */
  readonly shingles: Uint32Array;
}

/** Word offsets in a record. */
export const R = {
  STATUS: 0,
  LINE: 1,
  START: 2,
  END: 3,
  ID_START: 4,
  ID_LEN: 5,
  UTF16: 6,
  UTF8: 7,
  EMPTY: 8,
  EXACT: 9,
  ID_KEY: 13,
  SH_START: 17,
  SH_COUNT: 18,
} as const;

interface Exports {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  configure(...args: number[]): void;
  run(from: number, first: number): number;
  recordsWritten(): number;
  linesDone(): number;
  text(length: number, record: number): number;
}

const unitKernel = new LazyKernel<Exports>(UNIT_KERNEL_WASM);

function load(): Exports | undefined {
  return unitKernel.get();
}

/** Why the kernel did not load here, if it did not (the first pass then reads every document in JavaScript). */
export function unitKernelUnavailable(): Error | undefined {
  return unitKernel.unavailable;
}

const encoder = new TextEncoder();

interface Layout {
  readonly input: number;
  readonly records: number;
  readonly ids: number;
  readonly shingles: number;
}

/**
 * Lays out memory for an input of `inputBytes`, writes the names, and configures
 * the kernel; the input goes at `layout.input`. Undefined past MAX_LAYOUT_BYTES.
 */
function prepare(
  kernel: Exports,
  inputBytes: number,
  setup: KernelSetup,
  idPrefix: string,
  stripBom: boolean,
): Layout | undefined {
  const names = encoder.encode(setup.textField + setup.idField);
  const textFieldBytes = encoder.encode(setup.textField).length;
  const prefix = encoder.encode(idPrefix);
  const L = inputBytes + 16;
  let at = align(kernel.heapBase());
  const take = (bytes: number): number => {
    const start = at;
    at = align(at + bytes);
    return start;
  };
  const input = take(L);
  const fields = take(names.length);
  const prefixAt = take(prefix.length);
  const records = take(RECORD_CAP * REC_WORDS * 4);
  const ids = take(L + RECORD_CAP * (prefix.length + 12));
  const shingles = take(8 * L);
  const norm = take(2 * L + 16);
  const starts = take(4 * (2 * L + 16));
  let capacity = 4;
  while (capacity < 4 * (L + 1)) capacity *= 2;
  // At most a quarter full (shingleHash.as.ts); with count weighting, each slot's repeats so far follow the table.
  const table = take((setup.counts ? 8 : 4) * capacity);
  if (at > MAX_LAYOUT_BYTES) return undefined;
  reserveMemory(kernel.memory, at);
  const bytes = new Uint8Array(kernel.memory.buffer);
  bytes.set(names, fields);
  bytes.set(prefix, prefixAt);
  const flags =
    (stripBom ? 1 : 0) |
    (setup.char ? 2 : 0) |
    (setup.idRequired ? 4 : 0) |
    (setup.hash === 'fnv1a64' ? 0 : setup.hash === 'sha1-32' ? 8 : 8 | 16) |
    (setup.counts ? 32 : 0);
  kernel.configure(
    input,
    inputBytes,
    fields,
    textFieldBytes,
    names.length - textFieldBytes,
    prefixAt,
    prefix.length,
    flags,
    setup.n,
    records,
    RECORD_CAP,
    ids,
    shingles,
    norm,
    starts,
    table,
  );
  return { input, records, ids, shingles };
}

function align(at: number): number {
  return Math.ceil(at / 16) * 16; // not (at + 15) & ~15: past 2^31 that goes negative
}

function recordsOf(kernel: Exports, layout: Layout, count: number): KernelRecords {
  const { buffer } = kernel.memory;
  return {
    count,
    words: new Int32Array(buffer, layout.records, count * REC_WORDS),
    ids: new Uint8Array(buffer, layout.ids),
    shingles: new Uint32Array(buffer, layout.shingles),
  };
}

function release(): void {
  unitKernel.dropIfOver(KEEP_BYTES);
}

/**
 * Walks a JSON Lines unit: calls `each` with up to RECORD_CAP records at a
 * time (views of the kernel's memory, valid during the call; `each` must not
 * call the kernel, which would overwrite them). `stripBom`: the
 * unit starts its file (a byte order mark on line 1 is not part of it). False
 * when the kernel is unavailable or the unit too large for it (the caller then
 * reads it in TypeScript).
 */
export function kernelLines(
  bytes: Uint8Array,
  firstLine: number,
  stripBom: boolean,
  setup: KernelSetup,
  idPrefix: string,
  each: (records: KernelRecords, recordWords: number) => void,
): boolean {
  const kernel = load();
  if (!kernel) return false;
  const layout = prepare(kernel, bytes.length, setup, idPrefix, stripBom);
  if (!layout) return false;
  new Uint8Array(kernel.memory.buffer).set(bytes, layout.input);
  let from = 0;
  let line = firstLine;
  while (from < bytes.length) {
    const next = kernel.run(from, line);
    each(recordsOf(kernel, layout, kernel.recordsWritten()), REC_WORDS);
    line = kernel.linesDone() + 1;
    from = next;
  }
  release();
  return true;
}

/**
 * One text's keys and shingles (the readers that stay in JavaScript: Parquet,
 * text files, JSON arrays, texts from memory): record 0 (no id fields) and the
 * shingle words, views valid until the kernel's next call; undefined when the
 * kernel is unavailable or leaves the text to JavaScript (a capital sigma, or
 * past MAX_LAYOUT_BYTES).
 */
export function kernelText(text: string, setup: KernelSetup): KernelRecords | undefined {
  const kernel = load();
  if (!kernel) return undefined;
  const layout = prepare(kernel, 3 * text.length, setup, '', false);
  if (!layout) return undefined;
  const { written } = encoder.encodeInto(text, new Uint8Array(kernel.memory.buffer, layout.input, 3 * text.length));
  const done = kernel.text(written, 0) === 1;
  const records = recordsOf(kernel, layout, 1);
  release();
  return done ? records : undefined;
}
