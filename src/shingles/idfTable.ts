/**
 * Counting document frequencies and the table file (`--idf FILE`).
 *
 * Counting: DfCounter holds an exact open-addressing map of each distinct shingle (its 61-bit value as (lo, hi))
 * to its df, three Uint32 words a slot at load ≤ 1/2: at most 24 bytes per distinct shingle (36 while it grows),
 * up to a limit past which idfPass.ts counts again only the candidates a count-min sketch names (dfSketch.ts).
 * Exact either way, so a table does not depend on threads, order, memory or chance.
 *
 * The file, little-endian:
 *   - 16 bytes `gpudedup-idf/v1\n`;
 *   - a uint32, the byte length H of the header, then H bytes of UTF-8 JSON:
 *     { shingle, n, nfkc, stripPunctuation, documents, rule, wMax, entries };
 *   - `entries` × (lo, hi, df), three uint32 each, sorted by (hi, lo): the shingles lighter than W_MAX only
 *     (idfWeights.ts), since a shingle the table lacks weighs W_MAX.
 * Written deterministically, so the same corpus and settings give the same bytes and the same identity
 * (murmur3 x86 128 of the bytes), which signature files record.
 */
import { murmur3x86_128 } from '../math/murmur3.js';
import {
  hashPair,
  IDF_RULE,
  IDF_W_MAX,
  idfWeight,
  indexEntries,
  type IdfShingling,
  type IdfTable,
} from './idfWeights.js';

const MAGIC = 'gpudedup-idf/v1\n';

/**
 * Exact document frequencies of deduplicated shingle sets, added one document at a time: of every shingle, or of
 * those `only` accepts. Past `limit` distinct shingles it lets its map go and counts documents only (`overflowed`):
 * the caller counts again with a filter (idfPass.ts, dfSketch.ts).
 */
export class DfCounter {
  documents = 0;
  /** More than `limit` distinct shingles came: the map was let go, the table cannot be made. */
  overflowed = false;
  private used = 0;
  private words = new Uint32Array(3 * 1024);
  private mask = 1023;

  constructor(
    private readonly only?: (lo: number, hi: number) => boolean,
    private readonly limit = Number.POSITIVE_INFINITY,
  ) {}

  /** One document's set ((lo, hi) pairs, each shingle once); a document without shingles is not counted. */
  addSet(set: Uint32Array): void {
    if (set.length === 0) return;
    this.documents++;
    const { only } = this;
    for (let i = 0; i < set.length && !this.overflowed; i += 2)
      if (only === undefined || only(set[i], set[i + 1])) this.add(set[i], set[i + 1]);
  }

  /** Distinct shingles counted so far. */
  get distinct(): number {
    return this.used;
  }

  /** The table of the shingles lighter than W_MAX. */
  table(shingling: IdfShingling): IdfTable {
    if (this.overflowed) throw new Error(`DfCounter: more than ${this.limit} distinct shingles, the map was let go`);
    const kept: number[] = [];
    const { words } = this;
    for (let s = 0; s <= this.mask; s++) {
      const df = words[3 * s + 2];
      if (df > 0 && idfWeight(this.documents, df) < IDF_W_MAX) kept.push(s);
    }
    kept.sort((a, b) => words[3 * a + 1] - words[3 * b + 1] || words[3 * a] - words[3 * b]);
    const entries = new Uint32Array(3 * kept.length);
    kept.forEach((s, e) => entries.set(words.subarray(3 * s, 3 * s + 3), 3 * e));
    return tableOf(shingling, this.documents, entries);
  }

  private add(lo: number, hi: number): void {
    const { words, mask } = this;
    let slot = hashPair(lo, hi) & mask;
    for (; words[3 * slot + 2] !== 0; slot = (slot + 1) & mask)
      if (words[3 * slot] === lo && words[3 * slot + 1] === hi) {
        words[3 * slot + 2]++;
        return;
      }
    words[3 * slot] = lo;
    words[3 * slot + 1] = hi;
    words[3 * slot + 2] = 1;
    if (++this.used > this.limit) {
      this.overflowed = true;
      this.words = new Uint32Array(3 * 4);
      this.mask = 3;
      this.used = 0;
    } else if (this.used * 2 > mask + 1) this.grow();
  }

  private grow(): void {
    const old = this.words;
    this.mask = 2 * this.mask + 1;
    this.words = new Uint32Array(3 * (this.mask + 1));
    this.used = 0;
    for (let s = 0; 3 * s < old.length; s++) {
      const df = old[3 * s + 2];
      if (df === 0) continue;
      let slot = hashPair(old[3 * s], old[3 * s + 1]) & this.mask;
      while (this.words[3 * slot + 2] !== 0) slot = (slot + 1) & this.mask;
      this.words.set(old.subarray(3 * s, 3 * s + 3), 3 * slot);
      this.used++;
    }
  }
}

/** A table from its entries (sorted (lo, hi, df) triples), indexed, with the identity of its file bytes. */
export function tableOf(shingling: IdfShingling, documents: number, entries: Uint32Array): IdfTable {
  const { slots, mask } = indexEntries(entries);
  const partial = { documents, shingling, entries, slots, mask, identity: '' };
  return { ...partial, identity: identityOf(encodeIdfTable(partial)) };
}

/** The table's file bytes. */
export function encodeIdfTable(table: Omit<IdfTable, 'identity'>): Uint8Array {
  const { shingle, n, nfkc, stripPunctuation } = table.shingling;
  const header = new TextEncoder().encode(
    JSON.stringify({
      shingle,
      n,
      nfkc,
      stripPunctuation,
      documents: table.documents,
      rule: IDF_RULE,
      wMax: IDF_W_MAX,
      entries: table.entries.length / 3,
    }),
  );
  const bytes = new Uint8Array(MAGIC.length + 4 + header.length + 4 * table.entries.length);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(MAGIC), 0);
  view.setUint32(MAGIC.length, header.length, true);
  bytes.set(header, MAGIC.length + 4);
  const body = MAGIC.length + 4 + header.length;
  for (let i = 0; i < table.entries.length; i++) view.setUint32(body + 4 * i, table.entries[i], true);
  return bytes;
}

/** A table read back from its file bytes; `source` names it in errors. */
export function decodeIdfTable(bytes: Uint8Array, source: string): IdfTable {
  const bad = (why: string): RangeError => new RangeError(`${source}: not a gpudedup idf table (${why})`);
  if (bytes.length < MAGIC.length + 4 || new TextDecoder().decode(bytes.subarray(0, MAGIC.length)) !== MAGIC)
    throw bad(`it does not start with ${JSON.stringify(MAGIC)}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(MAGIC.length, true);
  const body = MAGIC.length + 4 + length;
  if (body > bytes.length) throw bad('its header is cut short');
  const text = new TextDecoder().decode(bytes.subarray(MAGIC.length + 4, body));
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw bad('its header is not JSON');
  }
  if (header.rule !== IDF_RULE || header.wMax !== IDF_W_MAX) throw bad(`rule ${String(header.rule)}, not ${IDF_RULE}`);
  const count = Number(header.entries);
  const documents = Number(header.documents);
  if (!Number.isInteger(count) || bytes.length !== body + 12 * count) throw bad('its length does not match its header');
  if (!Number.isInteger(documents) || documents < 0 || documents > 0xffffffff) throw bad('bad document count');
  const entries = new Uint32Array(3 * count);
  for (let i = 0; i < entries.length; i++) entries[i] = view.getUint32(body + 4 * i, true);
  for (let e = 0; e < count; e++) if (entries[3 * e + 2] > documents) throw bad('a df above the documents counted');
  const shingling: IdfShingling = {
    shingle: String(header.shingle),
    n: Number(header.n),
    nfkc: header.nfkc === true,
    stripPunctuation: header.stripPunctuation === true,
  };
  const { slots, mask } = indexEntries(entries);
  return { documents, shingling, entries, slots, mask, identity: identityOf(bytes) };
}

/** The settings in which a table's shingling differs from a run's, as "n: 3 vs 5"; empty when they agree. */
export function shinglingDifferences(table: IdfShingling, run: IdfShingling): string[] {
  return (['shingle', 'n', 'nfkc', 'stripPunctuation'] as const)
    .filter((key) => table[key] !== run[key])
    .map((key) => `${key}: ${String(table[key])} in the table vs ${String(run[key])}`);
}

function identityOf(bytes: Uint8Array): string {
  return Array.from(murmur3x86_128(bytes), (w) => w.toString(16).padStart(8, '0')).join('');
}
