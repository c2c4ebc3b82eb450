/**
 * The index's decisions, the same for the in-memory and the on-disk index:
 * LSH candidates from every segment's band tables, each pair decided as dedup decides it (pairDecision.ts: the
 * estimate, exact Jaccard — a simhash index's exact angle —, or hybrid: the estimate where it is sure, exact inside
 * the margin), at the index's threshold. Browser-safe.
 *
 * Exact duplicates need no table of their own: equal normalized texts have equal shingle sets, hence equal signatures,
 * so they meet in every band and are accepted at estimate 1 (and exact 1 where sets are compared), whatever the verify
 * mode — the decision dedup's exact pre-pass makes.
 */
import { agreementEstimate, equalSlots, type SignatureMatrix } from '../bands/signatureMatrix.js';
import { decideEqualSlots, isAccepted, pairRule, type ExactEvidence, type PairRule } from '../verify/pairDecision.js';
import { exactSimilarityOf } from '../verify/exactJaccard.js';
import type { IndexParameters } from './options.js';
import { bandKeysOfRow, type MemorySegment, rowWidthOf, type IndexSegment } from './segment.js';
import type { SignedTexts } from './signing.js';
import type { AddDecision, IndexDocument, IndexMatch, QueryOptions, QueryResult } from './types.js';
import { IndexIdError } from './errors.js';
import { containmentMatches } from './containment.js';
import { fingerprintsOf } from './forest.js';
import { ForestCache } from './forestCache.js';
import { RowScorer } from './rowScorer.js';
import { topMatches, type ForestQuery } from './topK.js';
import { measureOf, simhashTopMatches } from './simhashTopK.js';
import { warmTopK } from './warmUp.js';
import { invalidIdReason } from '../text/wellFormed.js';

/** A document of the index: segment index (in the list the engine was given) and row. */
export interface Located {
  readonly segment: number;
  readonly row: number;
}

interface Candidate extends Located {
  readonly source: IndexSegment;
}

export class IndexEngine {
  private readonly rule: PairRule;
  private readonly width: number;
  private readonly keys: Uint32Array;
  private readonly pair: Uint32Array;
  private readonly pairMatrix: SignatureMatrix;
  /** Top-K and containment queries' forests, built on the first such query (forest.ts). */
  readonly forests: ForestCache;
  private readonly scorer: RowScorer;

  constructor(readonly parameters: IndexParameters) {
    const measure = measureOf(parameters);
    this.forests = new ForestCache(parameters);
    this.scorer = new RowScorer(parameters, exactSimilarityOf(measure));
    this.width = rowWidthOf(parameters);
    this.rule = pairRule(
      parameters.verify,
      parameters.threshold,
      { k: parameters.k, slotBits: parameters.slotBits },
      parameters.estimateError,
      measure,
    );
    this.keys = new Uint32Array(2 * parameters.bands);
    this.pair = new Uint32Array(2 * this.width);
    this.pairMatrix = { words: this.pair, k: parameters.k, slotBits: parameters.slotBits, count: 2 };
  }

  /**
   * Live documents sharing at least one band key with row `at` of `words`,
   * each once, in (segment, row) order. `looked[s]`, where given, holds
   * segment s's rows for this row's keys, looked up already (`lookUpRun`).
   */
  candidates(
    segments: readonly IndexSegment[],
    words: Uint32Array,
    at: number,
    looked?: readonly (readonly number[] | undefined)[],
  ): Candidate[] {
    bandKeysOfRow(this.parameters, words, at, this.keys);
    const found: Candidate[] = [];
    const rows: number[] = [];
    segments.forEach((source, segment) => {
      let hits: readonly number[] | undefined = looked?.[segment];
      if (hits === undefined) {
        rows.length = 0;
        for (let b = 0; b < this.parameters.bands; b++) source.lookup(b, this.keys[2 * b], this.keys[2 * b + 1], rows);
        hits = rows;
      }
      const distinct = [...new Set(hits)].sort((x, y) => x - y);
      for (const row of distinct) if (!source.isRemoved(row)) found.push({ segment, row, source });
    });
    return found;
  }

  /**
   * Rows of `source` sharing a band key with each non-empty row of documents
   * [from, to) (repeats and all, as `lookup` appends them; [] for an empty
   * one). Band by band, the run's keys in sorted order: a disk segment then
   * reads each band block about once per band and run, not once per document.
   */
  lookUpRun(source: IndexSegment, signed: SignedTexts, from: number, to: number): number[][] {
    const { bands } = this.parameters;
    const n = to - from;
    const keys = new Uint32Array(2 * bands * n);
    const order: number[] = [];
    const hits: number[][] = [];
    for (let i = 0; i < n; i++) {
      hits.push([]);
      if (signed.empty[from + i] === 1) continue;
      bandKeysOfRow(
        this.parameters,
        signed.words,
        (from + i) * this.width,
        keys.subarray(2 * bands * i, 2 * bands * (i + 1)),
      );
      order.push(i);
    }
    const rows: number[] = [];
    const los = new Uint32Array(n);
    const his = new Uint32Array(n);
    for (let b = 0; b < bands; b++) {
      for (const i of order) {
        los[i] = keys[2 * (bands * i + b)];
        his[i] = keys[2 * (bands * i + b) + 1];
      }
      order.sort((x, y) => his[x] - his[y] || los[x] - los[y]);
      for (let j = 0; j < order.length; j++) {
        const i = order[j];
        if (j === 0 || his[i] !== his[order[j - 1]] || los[i] !== los[order[j - 1]]) {
          rows.length = 0;
          source.lookup(b, los[i], his[i], rows);
        }
        for (const row of rows) hits[i].push(row);
      }
    }
    return hits;
  }

  /** The candidates that pass verification at the threshold, most similar first. */
  verified(
    candidates: readonly Candidate[],
    words: Uint32Array,
    at: number,
    set: Uint32Array | undefined,
  ): IndexMatch[] {
    const matches: IndexMatch[] = [];
    this.pair.set(words.subarray(at, at + this.width), 0);
    for (const c of candidates) {
      c.source.readRow(c.row, this.pair, this.width);
      const equal = equalSlots(this.pairMatrix, 0, 1);
      const estimate = agreementEstimate(equal, this.pairMatrix.k, this.pairMatrix.slotBits);
      let exact: number | undefined;
      const evidence: ExactEvidence = {
        // Without both sets (an index that does not store them), the estimate decides at the threshold.
        known: () => set !== undefined && c.source.hasSets,
        // Jaccard (a disk row's set read into the kernel's memory: no array a candidate), or a simhash index's angle.
        similarity: () => (exact = this.scorer.exactOfRow(c.source, c.row, set!)!),
        missingSets: 'estimate',
      };
      const decision = decideEqualSlots(this.rule, this.pairMatrix, equal, 0, 1, evidence);
      // Every slot equal (an exact duplicate, as a rule): confirmed by its sets where they are at hand, for the report.
      if (estimate === 1 && exact === undefined && evidence.known!(0, 1)) evidence.similarity(0, 1);
      if (isAccepted(decision))
        matches.push(
          exact === undefined
            ? { id: c.source.id(c.row), similarity: estimate }
            : { id: c.source.id(c.row), similarity: estimate, exact },
        );
    }
    return sortMatches(matches);
  }

  /** One result per signed text, in order: matches at the threshold, or the forests' (topK.ts, containment.ts). */
  query(segments: readonly IndexSegment[], signed: SignedTexts, options: QueryOptions = {}): QueryResult[] {
    const byForest = options.top !== undefined || options.containment !== undefined;
    const measure = measureOf(this.parameters);
    const forests = byForest ? this.forests.forestsOf(segments) : [];
    if (options.containment === undefined) warmTopK(segments, forests, this.parameters, this.scorer, options.top);
    const [fingerprints, results] = [new Uint16Array(forests[0]?.slots ?? 0), [] as QueryResult[]];
    for (let d = 0; d < signed.count; d++) {
      const at = d * this.width;
      const set = signed.sets?.[d];
      if (signed.empty[d] === 1) {
        results.push({ matches: [] }); // no tokens: never a duplicate of anything
      } else if (!byForest) {
        results.push({ matches: this.verified(this.candidates(segments, signed.words, at), signed.words, at, set) });
      } else {
        fingerprintsOf(this.parameters, signed.words, at, fingerprints);
        const query: ForestQuery = { words: signed.words, at, fingerprints, set };
        const { top, containment } = options;
        const matches =
          containment !== undefined
            ? containmentMatches(
                segments,
                forests,
                (s) => this.forests.postingsOf(s),
                { ...query, q: set === undefined ? 0 : set.length / 2, c: containment },
                this.scorer,
              ).slice(0, top)
            : (measure === 'angular' ? simhashTopMatches : topMatches)(
                segments,
                forests,
                (s) => this.forests.postingsOf(s),
                query,
                top!,
                options.rerank ?? 'estimate',
                this.scorer,
              );
        results.push({ matches });
      }
    }
    return results;
  }

  /**
   * Each document in input order against the index's live documents and the
   * batch's documents added before it (the last segment, `pending`): added
   * when nothing matched (or `all`). Documents [from, to), called in order.
   */
  decide(
    segments: readonly IndexSegment[],
    documents: readonly IndexDocument[],
    signed: SignedTexts,
    pending: MemorySegment,
    all: boolean,
    from = 0,
    to = documents.length,
  ): AddDecision[] {
    const searched = [...segments, pending];
    // The committed segments do not change during the add: their lookups for the whole run at once.
    const looked = segments.map((source) => this.lookUpRun(source, signed, from, to));
    const decisions: AddDecision[] = [];
    for (let d = from; d < to; d++) {
      const at = d * this.width;
      const empty = signed.empty[d] === 1;
      const matches = empty
        ? []
        : this.verified(
            this.candidates(
              searched,
              signed.words,
              at,
              looked.map((hits) => hits[d - from]),
            ),
            signed.words,
            at,
            signed.sets?.[d],
          );
      const added = all || matches.length === 0;
      // candidates() left this row's band keys in this.keys.
      if (added)
        pending.append(
          documents[d].id,
          documents[d].text.length,
          signed.words,
          at,
          signed.exactKeys,
          4 * d,
          empty,
          signed.sets?.[d],
          empty ? undefined : this.keys,
        );
      decisions.push({ id: documents[d].id, added, matches });
    }
    return decisions;
  }
}

/** Most similar first (exact Jaccard where known, then the estimate); ties keep index order. */
function sortMatches(matches: IndexMatch[]): IndexMatch[] {
  const key = (m: IndexMatch): number => m.exact ?? m.similarity;
  return matches
    .map((m, i) => ({ m, i }))
    .sort((x, y) => key(y.m) - key(x.m) || y.m.similarity - x.m.similarity || x.i - y.i)
    .map(({ m }) => m);
}

/**
 * Refuses a batch before any work: ids must be non-empty strings of valid
 * Unicode (stored as UTF-8: a lone surrogate would collapse into U+FFFD),
 * distinct within the batch and not already live in the index.
 */
export function checkBatchIds(documents: readonly IndexDocument[], isLive: (id: string) => boolean): void {
  const seen = new Map<string, number>();
  documents.forEach((doc, i) => {
    if (doc === null || typeof doc !== 'object' || typeof doc.id !== 'string' || typeof doc.text !== 'string') {
      throw new TypeError(`document ${i + 1} of the add: expected { id: string, text: string }`);
    }
    if (doc.id === '') throw new IndexIdError('empty', doc.id, [i + 1]);
    if (invalidIdReason(doc.id) !== undefined) throw new IndexIdError('invalid', doc.id, [i + 1]);
    const earlier = seen.get(doc.id);
    if (earlier !== undefined) throw new IndexIdError('repeated', doc.id, [earlier + 1, i + 1]);
    seen.set(doc.id, i);
    if (isLive(doc.id)) {
      const indexed = documents.filter(
        (d) => d !== null && typeof d === 'object' && typeof d.id === 'string' && isLive(d.id),
      ).length;
      throw new IndexIdError('indexed', doc.id, [i + 1], { indexed, of: documents.length });
    }
  });
}
