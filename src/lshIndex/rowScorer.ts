/**
 * The rescoring's per-row scores (topK.ts, containment.ts, simhashTopK.ts):
 * a row's full-signature estimate against the query, read from its segment,
 * and its exact similarity with the query's set where the index stores sets —
 * read straight into the intersection kernel's memory against the query's
 * table, filled once a query (verify/exactJaccard.ts: jaccardWith; issue 39: a
 * family's top-10 query and a common excerpt's containment read ~1,000 sets).
 * Browser-safe.
 */
import { signatureAgreement, type SignatureMatrix } from '../bands/signatureMatrix.js';
import { exactJaccard, jaccardWith, type QueryJaccard } from '../verify/exactJaccard.js';
import type { IndexParameters } from './options.js';
import type { RowScore } from './rerank.js';
import { rowWidthOf, type IndexSegment } from './segment.js';

/** The query's row, its forest fingerprints and (where kept) its shingle set. */
export interface ForestQuery {
  readonly words: Uint32Array;
  readonly at: number;
  readonly fingerprints: Uint16Array;
  readonly set?: Uint32Array;
}

/** Full-signature estimates and exact Jaccard of the query against rows of the segments. */
export class RowScorer {
  private readonly width: number;
  private readonly pair: Uint32Array;
  private readonly matrix: SignatureMatrix;
  /** Jaccard's with the last query set's table filled once (jaccardWith). */
  private against: { set?: Uint32Array; jaccard?: QueryJaccard; copies?: ScoredCopies } = {};
  constructor(
    parameters: IndexParameters,
    /** What exact scores measure: Jaccard, or a simhash index's angle (exactJaccard.ts). */
    readonly exact: (x: Uint32Array, y: Uint32Array) => number = exactJaccard,
  ) {
    this.width = rowWidthOf(parameters);
    this.pair = new Uint32Array(2 * this.width);
    this.matrix = { words: this.pair, k: parameters.k, slotBits: parameters.slotBits, count: 2 };
  }

  setQuery(query: ForestQuery): void {
    this.pair.set(query.words.subarray(query.at, query.at + this.width), 0);
  }

  estimate(source: IndexSegment, row: number): number {
    source.readRow(row, this.pair, this.width);
    return signatureAgreement(this.matrix, 0, 1);
  }

  /** The row's estimate, and its exact Jaccard with `set` where given and the row's set is stored. */
  scores(source: IndexSegment, row: number, set: Uint32Array | undefined): RowScore {
    const similarity = this.estimate(source, row);
    const exact = set === undefined ? undefined : this.exactOfRow(source, row, set);
    return exact === undefined ? { similarity } : { similarity, exact };
  }

  /** exact(set, the row's stored set); undefined where sets are not stored. */
  exactOfRow(source: IndexSegment, row: number, set: Uint32Array): number | undefined {
    if (this.exact !== exactJaccard) {
      const other = source.readSet(row);
      return other === undefined ? undefined : this.exact(set, other);
    }
    if (this.against.set !== set) this.against = { set, jaccard: jaccardWith(set), copies: new ScoredCopies() };
    const { jaccard, copies } = this.against;
    const keys = source.exactKeys;
    const known = keys === undefined ? undefined : copies!.find(keys, row);
    if (known !== undefined) return known;
    const exact = storedJaccard(jaccard!, source, row)?.exact;
    if (keys !== undefined && exact !== undefined) copies!.add(keys, row, exact);
    return exact;
  }

  /**
   * The row's exact Jaccard with `set`, and `agreement` (the forest's
   * in-memory fingerprint agreement) standing in for its estimate: one read
   * a row, not two; the estimate itself where the row's set is not stored.
   */
  exactScores(source: IndexSegment, row: number, set: Uint32Array, agreement: number): RowScore {
    const exact = this.exactOfRow(source, row, set);
    return exact === undefined ? { similarity: this.estimate(source, row) } : { similarity: agreement, exact };
  }
}

/**
 * Exact Jaccard with one query set by the rows' exact keys (segment.ts: equal keys, equal sets), so that a family's
 * identical copies are read once a query (issue 39: 40 % of a family's ~1,000 reads at 1 M). Keyed by 52 bits of the
 * key, the whole key compared; an all-zero key (an empty document) is never looked up.
 */
class ScoredCopies {
  private readonly byKey = new Map<number, { readonly key: Uint32Array; readonly exact: number }>();

  find(keys: Uint32Array, row: number): number | undefined {
    const at = 4 * row;
    const found = this.byKey.get(keys[at] + (keys[at + 1] & 0xfffff) * 2 ** 32);
    if (found === undefined) return undefined;
    for (let w = 0; w < 4; w++) if (found.key[w] !== keys[at + w]) return undefined;
    return found.exact;
  }

  add(keys: Uint32Array, row: number, exact: number): void {
    const key = keys.slice(4 * row, 4 * row + 4);
    if ((key[0] | key[1] | key[2] | key[3]) !== 0)
      this.byKey.set(key[0] + (key[1] & 0xfffff) * 2 ** 32, { key, exact });
  }
}

/**
 * Exact Jaccard of a query (its jaccardWith) with the row's stored set, and that set's size; undefined where sets
 * are not stored. Read straight into the intersection kernel's memory where the segment can (no array a row).
 */
export function storedJaccard(
  jaccard: QueryJaccard,
  source: IndexSegment,
  row: number,
): { exact: number; size: number } | undefined {
  if (source.hasSets && source.readSetInto !== undefined && source.setSize !== undefined) {
    const size = source.setSize(row);
    return { exact: jaccard.reading(2 * size, (into) => source.readSetInto!(row, into)), size };
  }
  const set = source.readSet(row);
  return set === undefined ? undefined : { exact: jaccard(set), size: set.length / 2 };
}
