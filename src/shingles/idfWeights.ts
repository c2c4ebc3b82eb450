/**
 * Inverse-document-frequency weighting (`--weights idf`): a shingle g of a
 * document's set weighs
 *
 *     w(g) = min(W_MAX, 1 + ⌊log2(N / df(g))⌋),   W_MAX = 8,
 *
 * N the documents counted (those with at least one shingle), df(g) how many of
 * them hold g (a shingle the table does not hold, df 0, weighs W_MAX). Computed
 * in integers only — 1 + ⌊log2(N / df)⌋ is the bit length of ⌊N / df⌋ — so every
 * machine gets the same weights. A shingle in every document weighs 1, in half
 * of them 2, in at most N / 128 of them 8.
 *
 * A shingle of weight w stands for the w distinct elements (g, 0) … (g, w − 1)
 * of math/weightedElement.ts, the same elements `--weights counts` makes, so the
 * Jaccard similarity of two expanded sets is the idf-weighted Jaccard
 * Σ_{A∩B} w / Σ_{A∪B} w and every signing kernel (TS, wasm, WGSL) signs them unchanged.
 *
 * The table keeps only shingles lighter than W_MAX (df > N / 2^(W_MAX − 1)):
 * fewer than 2^(W_MAX − 1) times the mean set size, whatever the corpus's size.
 */
import { weightedElement } from '../math/weightedElement.js';

/** The heaviest weight: a shingle in at most N / 2^(W_MAX − 1) documents. */
export const IDF_W_MAX = 8;

/** The quantization rule as recorded in a table's header. */
export const IDF_RULE = 'w = min(8, 1 + floor(log2(N / df))), df 0 → 8';

/** The shingle settings a table was counted with: a table serves only runs that shingle alike. */
export interface IdfShingling {
  readonly shingle: string;
  readonly n: number;
  readonly nfkc: boolean;
  readonly stripPunctuation: boolean;
}

/**
 * A weight table, plain data (it travels to worker threads with the shingle options): `entries` holds
 * (lo, hi, df) of each shingle lighter than W_MAX, sorted by (hi, lo); `slots` an open-addressing index into them
 * (entry + 1; 0 empty), `mask + 1` slots.
 */
export interface IdfTable {
  readonly documents: number;
  readonly shingling: IdfShingling;
  readonly entries: Uint32Array;
  readonly slots: Int32Array;
  readonly mask: number;
  /** murmur3 x86 128 of the table's file bytes, 32 hex digits: what signature files record. */
  readonly identity: string;
}

/** w(g) for a shingle in `df` of `documents` documents (df 0: not counted, W_MAX). */
export function idfWeight(documents: number, df: number): number {
  if (df <= 0) return IDF_W_MAX;
  const q = Math.floor(documents / df);
  return q < 1 ? 1 : Math.min(IDF_W_MAX, 32 - Math.clz32(q));
}

/** The open-addressing index over `entries` (count = entries.length / 3). */
export function indexEntries(entries: Uint32Array): { slots: Int32Array; mask: number } {
  const count = entries.length / 3;
  let capacity = 4;
  while (capacity < count * 2) capacity *= 2;
  const mask = capacity - 1;
  const slots = new Int32Array(capacity);
  for (let e = 0; e < count; e++) {
    let slot = hashPair(entries[3 * e], entries[3 * e + 1]) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = e + 1;
  }
  return { slots, mask };
}

/** The df of shingle (lo, hi) in the table: 0 when it holds none. */
export function tableDf(table: IdfTable, lo: number, hi: number): number {
  const { slots, mask, entries } = table;
  for (let slot = hashPair(lo, hi) & mask; ; slot = (slot + 1) & mask) {
    const e = slots[slot] - 1;
    if (e < 0) return 0;
    if (entries[3 * e] === lo && entries[3 * e + 1] === hi) return entries[3 * e + 2];
  }
}

/** The idf-weighted elements of a deduplicated shingle set ((lo, hi) pairs): shingle by shingle, (g, 0) … (g, w − 1). */
export function idfElements(set: Uint32Array, table: IdfTable): Uint32Array {
  const count = set.length / 2;
  const weights = new Uint8Array(count);
  let total = 0;
  for (let i = 0; i < count; i++) {
    weights[i] = idfWeight(table.documents, tableDf(table, set[2 * i], set[2 * i + 1]));
    total += weights[i];
  }
  const out = new Uint32Array(2 * total);
  let at = 0;
  for (let i = 0; i < count; i++) {
    const lo = set[2 * i];
    const hi = set[2 * i + 1];
    for (let j = 0; j < weights[i]; j++, at += 2) weightedElement(lo, hi, j, out, at);
  }
  return out;
}

export function hashPair(lo: number, hi: number): number {
  return Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) >>> 7;
}

const loaded = new Map<string, IdfTable>();

/**
 * Makes a table known by its identity, so that the shingle options of parameters recording it
 * (signatures/params.ts) carry it; a run loads or counts its table first.
 */
export function registerIdfTable(table: IdfTable): void {
  loaded.set(table.identity, table);
}

/** Whether the table of this identity is loaded. */
export function idfTableLoaded(identity: string): boolean {
  return loaded.has(identity);
}

/** The table of this identity, loaded earlier in this process; refused in one line when none is. */
export function idfTableFor(identity: string | undefined): IdfTable {
  const table = identity === undefined ? undefined : loaded.get(identity);
  if (table === undefined)
    throw new RangeError(
      `--weights idf: the document-frequency table ${identity ?? '(none recorded)'} is not loaded; give it with --idf FILE`,
    );
  return table;
}
