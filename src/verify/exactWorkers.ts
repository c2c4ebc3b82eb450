/**
 * Exact Jaccard and pair decisions on worker threads (Node's; the tab's Web
 * Workers where it is cross-origin isolated): the sets are posted once as
 * SharedSets (shared chunks, and the spill file each worker opens itself),
 * the candidates' rows once as a shared matrix (or, where they are too large
 * to share, each pair's count of equal slots with its batch), then batches of
 * pairs come and their decisions (`decide`, as decidePair makes them) go
 * back; verification.ts keeps and counts them in candidate order. No Node
 * imports: a worker's file reads come through `OpenWords`.
 */
import type { PairList } from '../bands/pairSet.js';
import { isShared } from '../bands/sharedMemory.js';
import { agreementEstimate, equalSlots, type SignatureMatrix } from '../bands/signatureMatrix.js';
import type { SharedSets } from '../firstPass/sharedSets.js';
import type { OpenWords, WordReader } from '../workers/wordFiles.js';
import { exactJaccard, exactSimilarityOf, jaccardWith, type QueryJaccard } from './exactJaccard.js';
import { fileOrder } from './fileOrder.js';
import { decideEqualSlots, type PairDecision, type PairRule, type SlotShape } from './pairDecision.js';

export type ExactRequest =
  | { readonly type: 'sets'; readonly sets: SharedSets }
  /**
   * The rows the decisions read, in shared memory: posted once, never copied. Without them (rows too large to share),
   * each batch brings its pairs' counts of equal slots.
   */
  | { readonly type: 'matrix'; readonly shape: SlotShape; readonly matrix?: SignatureMatrix }
  | {
      readonly type: 'decide';
      readonly a: Uint32Array;
      readonly b: Uint32Array;
      readonly rule: PairRule;
      readonly equal?: Uint32Array;
    };

export interface ExactResponse {
  readonly decided?: DecidedBatch;
}

/** A batch's decisions, as decidePair makes them: each pair's decision, estimate, and exact Jaccard (NaN if none). */
export interface DecidedBatch {
  /** Indexes into PAIR_DECISIONS. */
  readonly decisions: Uint8Array;
  readonly estimates: Float64Array;
  readonly exacts: Float64Array;
}

/** Every decision a worker can make on a pair whose sets it reads (so never one without its sets). */
export const PAIR_DECISIONS: readonly PairDecision[] = [
  'estimate accepted',
  'estimate rejected',
  'exact accepted',
  'exact rejected',
];

/** Candidate pairs decided in parallel, with exact Jaccard where the estimate cannot decide. */
export interface ExactPairs {
  /**
   * Decides every pair on the workers as decidePair does (sets read where they lie, so always at hand), reading
   * `matrix`'s rows where they lie; `onBatch` gets the batches in candidate order (where sets lie in a file, after
   * all are decided in the order that reads it front to back: fileOrder.ts), `onProgress` the count decided so far.
   */
  decide(
    matrix: SignatureMatrix,
    pairs: PairList,
    rule: PairRule,
    onBatch: (from: number, batch: DecidedBatch) => void,
    onProgress?: (decided: number) => void,
  ): Promise<void>;
}

/** The worker's side: holds the posted SharedSets and answers batches. */
export function exactHandler(openWords?: OpenWords) {
  let sets: SharedSets | undefined;
  let chunks: Uint32Array[] = [];
  let file: WordReader | undefined;
  const a = new FileSetCache();
  const b = new FileSetCache();
  const setOf = (g: number, cache: FileSetCache): Uint32Array => {
    const { chunk, start, length } = sets!;
    if (chunk[g] >= 0) return chunks[chunk[g]].subarray(start[g], start[g] + length[g]);
    if (file === undefined)
      throw new Error(`exact workers: the set of group ${g} lies in a file this worker cannot read`);
    return cache.read(file, g, start[g], length[g]);
  };
  let rows: { readonly shape: SlotShape; readonly matrix?: SignatureMatrix } | undefined;
  let similarity = exactSimilarityOf('jaccard');
  /**
   * Jaccard against the last first document: consecutive pairs often share it (candidates come sorted, and the
   * representative check compares one representative with its members), and its table is then built once. The same
   * count, so the same similarity to the last bit (jaccardWith).
   */
  let query: { readonly group: number; readonly of: QueryJaccard } | undefined;
  const exactOf = (x: number, y: number): number => {
    if (similarity !== exactJaccard) return similarity(setOf(x, a), setOf(y, b));
    // setOf(x, a) is read again only for another x: its view (in cache a) stays the query's while x stays.
    if (query?.group !== x) query = { group: x, of: jaccardWith(setOf(x, a)) };
    return query.of(setOf(y, b));
  };
  return (request: ExactRequest): { response: ExactResponse; transfer: ArrayBuffer[] } => {
    if (request.type === 'matrix') {
      rows = request;
      return { response: {}, transfer: [] };
    }
    if (request.type === 'decide') {
      if (sets === undefined || rows === undefined) throw new Error('exact workers: pairs came before the sets');
      similarity = exactSimilarityOf(request.rule.measure);
      const equal = request.equal ?? equalSlotsOf(rows.matrix!, request.a, request.b);
      const decided = decideBatch(rows.shape, equal, request, exactOf);
      return {
        response: { decided },
        transfer: [decided.decisions, decided.estimates, decided.exacts].map((x) => x.buffer as ArrayBuffer),
      };
    }
    // 'sets': a new run's sets (and its file).
    file?.close();
    sets = request.sets;
    chunks = sets.chunks.map((chunk) => new Uint32Array(chunk));
    file = sets.file === undefined ? undefined : openWords?.(sets.file);
    a.clear();
    b.clear();
    query = undefined;
    return { response: {}, transfer: [] };
  };
}

/** verifyPairs's loop over one batch of pairs whose slots agree in `equal` places, its results kept per pair. */
function decideBatch(
  shape: SlotShape,
  equal: Uint32Array,
  { a, b, rule }: { readonly a: Uint32Array; readonly b: Uint32Array; readonly rule: PairRule },
  exactOf: (x: number, y: number) => number,
): DecidedBatch {
  const decisions = new Uint8Array(a.length);
  const estimates = new Float64Array(a.length);
  const exacts = new Float64Array(a.length);
  let exact = Number.NaN;
  const evidence = { similarity: (x: number, y: number) => (exact = exactOf(x, y)) };
  for (let i = 0; i < a.length; i++) {
    exact = Number.NaN;
    const decision = decideEqualSlots(rule, shape, equal[i], a[i], b[i], evidence);
    const code = PAIR_DECISIONS.indexOf(decision);
    // Every set is at hand here, so a pair cannot be left undecided or to the estimate for want of sets.
    if (code < 0) throw new Error(`internal: exact workers made the decision '${decision}'`);
    decisions[i] = code;
    estimates[i] = agreementEstimate(equal[i], shape.k, shape.slotBits);
    exacts[i] = exact;
  }
  return { decisions, estimates, exacts };
}

/** Each pair's count of equal slots, read from the rows. */
function equalSlotsOf(matrix: SignatureMatrix, a: Uint32Array, b: Uint32Array): Uint32Array {
  const equal = new Uint32Array(a.length);
  for (let i = 0; i < a.length; i++) equal[i] = equalSlots(matrix, a[i], b[i]);
  return equal;
}

/** The last set read from the file into a reused buffer: a batch's pairs often share their first document. */
class FileSetCache {
  private group = -1;
  private words = new Uint32Array(4096);
  private view = this.words.subarray(0, 0);

  read(file: WordReader, g: number, start: number, length: number): Uint32Array {
    if (g === this.group) return this.view;
    if (this.words.length < length) this.words = new Uint32Array(Math.max(length, 2 * this.words.length));
    this.view = this.words.subarray(0, length);
    if (length > 0) file.read(this.view, start);
    this.group = g;
    return this.view;
  }

  clear(): void {
    this.group = -1;
  }
}

/** Pairs a batch: enough to keep a worker busy for a few milliseconds per message. */
const BATCH_PAIRS = 4096;

/** Workers that run `exactHandler`, whatever starts them. */
export interface ExactWorkerPool {
  readonly size: number;
  request(worker: number, request: ExactRequest): Promise<ExactResponse>;
}

/**
 * ExactPairs over workers that run `exactHandler`: the sets and the matrix posted to each once, then batches, two in
 * flight a worker.
 */
export function exactPairsOn(pool: ExactWorkerPool, sets: SharedSets): ExactPairs {
  let posted: Promise<unknown> | undefined;
  let postedMatrix: SignatureMatrix | undefined;
  let rowsShared = false;
  const toEach = (request: ExactRequest) =>
    Promise.all(Array.from({ length: pool.size }, (_, w) => pool.request(w, request)));
  const postSets = () => (posted ??= toEach({ type: 'sets', sets }));
  return {
    async decide(matrix, pairs, rule, onBatch, onProgress) {
      await postSets();
      if (postedMatrix !== matrix) {
        rowsShared = isShared(matrix.words);
        const shape = { k: matrix.k, slotBits: matrix.slotBits };
        await toEach({ type: 'matrix', shape, ...(rowsShared ? { matrix } : {}) });
        postedMatrix = matrix;
      }
      let done = 0;
      // Pairs [from, to) of `order` (candidate indexes), or of the candidates themselves without one.
      const decideIn = (order: Uint32Array | undefined, settle: (from: number, batch: DecidedBatch) => void) =>
        inBatches(pool.size, pairs.a.length, async (worker, from, to) => {
          const a = order === undefined ? pairs.a.slice(from, to) : gather(pairs.a, order.subarray(from, to));
          const b = order === undefined ? pairs.b.slice(from, to) : gather(pairs.b, order.subarray(from, to));
          // Rows too large to share (sharedMemory.ts): this thread counts the equal slots, the workers do the rest.
          const equal = rowsShared ? undefined : equalSlotsOf(matrix, a, b);
          const { decided } = await pool.request(worker, { type: 'decide', a, b, rule, ...(equal && { equal }) });
          return () => {
            settle(from, decided!);
            onProgress?.((done += to - from));
          };
        });
      const order = fileOrder(sets, pairs.a, pairs.b);
      if (order === undefined) return decideIn(undefined, onBatch);
      const all = emptyBatch(order.length);
      await decideIn(order, (from, batch) => scatter(all, order, from, batch));
      for (let from = 0; from < order.length; from += BATCH_PAIRS) {
        const to = Math.min(order.length, from + BATCH_PAIRS);
        onBatch(from, {
          decisions: all.decisions.subarray(from, to),
          estimates: all.estimates.subarray(from, to),
          exacts: all.exacts.subarray(from, to),
        });
      }
    },
  };
}

function emptyBatch(length: number): DecidedBatch {
  return { decisions: new Uint8Array(length), estimates: new Float64Array(length), exacts: new Float64Array(length) };
}

function gather(values: Uint32Array, order: Uint32Array): Uint32Array {
  const out = new Uint32Array(order.length);
  for (let i = 0; i < order.length; i++) out[i] = values[order[i]];
  return out;
}

/** Puts a batch decided in file order (pairs [from, …) of `order`) where its pairs stand in candidate order. */
function scatter(all: DecidedBatch, order: Uint32Array, from: number, batch: DecidedBatch): void {
  for (let i = 0; i < batch.decisions.length; i++) {
    const at = order[from + i];
    all.decisions[at] = batch.decisions[i];
    all.estimates[at] = batch.estimates[i];
    all.exacts[at] = batch.exacts[i];
  }
}

/**
 * Runs `work` on batches [from, to) of `count` items, two in flight a worker, and calls what each returns in batch
 * order (a batch done early waits for the ones before it).
 */
async function inBatches(
  workers: number,
  count: number,
  work: (worker: number, from: number, to: number) => Promise<() => void>,
): Promise<void> {
  let next = 0;
  let settled = 0;
  const ready = new Map<number, () => void>();
  const feed = async (worker: number): Promise<void> => {
    while (next < count) {
      const from = next;
      const to = Math.min(count, from + BATCH_PAIRS);
      next = to;
      ready.set(from, await work(worker, from, to));
      for (let done = ready.get(settled); done !== undefined; done = ready.get(settled)) {
        ready.delete(settled);
        done();
        settled = Math.min(count, settled + BATCH_PAIRS);
      }
    }
  };
  await Promise.all(Array.from({ length: 2 * workers }, (_, i) => feed(i % workers)));
}
