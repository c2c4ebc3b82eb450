/**
 * The in-memory index (browser-safe: no `node:` import). Same face as the
 * on-disk one (DedupIndex) and the same engine: each add becomes one
 * in-memory segment. The caller hands it a first-pass signer — Web Workers,
 * or this thread (`inlineSigner(new WasmSigner(family))` from
 * src/dedup/dedupDocuments.ts) — and destroys that signer itself.
 */
import type { FirstPassSigner } from '../firstPass/signedUnits.js';
import { usesShingleSets } from '../verify/verification.js';
import { checkOptions } from '../arguments.js';
import { checkAddArguments, checkQueryArguments, checkRemoveArguments } from './arguments.js';
import { checkBatchIds, IndexEngine, type Located } from './engine.js';
import { INDEX_OPTIONS, resolveParameters, resolveQuery, type IndexOptions, type IndexParameters } from './options.js';
import { MemorySegment } from './segment.js';
import { signTexts } from './signing.js';
import type {
  AddDecision,
  AddOptions,
  AddResult,
  DedupIndex,
  IndexDocument,
  IndexStats,
  QueryOptions,
  QueryResult,
  RemoveResult,
} from './types.js';

export type { IndexOptions } from './options.js';

export interface MemoryIndexOptions extends IndexOptions {
  /** Who signs (Web Workers, or `inlineSigner(...)` on this thread); its k must be the options' k. */
  readonly signer: FirstPassSigner;
}

export interface MemoryIndex extends DedupIndex {
  readonly parameters: Readonly<Record<string, unknown>>;
}

export function createMemoryIndex(options: MemoryIndexOptions): MemoryIndex {
  checkOptions(options, [...INDEX_OPTIONS, 'signer'], 'createMemoryIndex');
  const { signer, ...rest } = options ?? {};
  if (typeof signer?.backend?.k !== 'number')
    throw new TypeError(
      'createMemoryIndex: expected a signer (a FirstPassSigner: Web Workers, or inlineIndexSigner(parameters))',
    );
  const parameters = resolveParameters(rest);
  if (signer.backend.k !== parameters.k)
    throw new RangeError(`the signer signs k = ${signer.backend.k} slots, the index has k = ${parameters.k}`);
  return new InMemoryIndex(parameters, signer);
}

/** Runs one write at a time, in call order (a second add waits for the first). */
export class WriteQueue {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.last.then(work, work);
    this.last = next.catch(() => undefined);
    return next;
  }
}

class InMemoryIndex implements MemoryIndex {
  private readonly engine: IndexEngine;
  private readonly segments: MemorySegment[] = [];
  private readonly live = new Map<string, Located>();
  private readonly writes = new WriteQueue();
  private removedCount = 0;
  private closed = false;

  constructor(
    private readonly settings: IndexParameters,
    private readonly signer: FirstPassSigner,
  ) {
    this.engine = new IndexEngine(settings);
  }

  get parameters(): Readonly<Record<string, unknown>> {
    return { ...this.settings };
  }

  add(documents: readonly IndexDocument[], options: AddOptions = {}): Promise<AddResult> {
    return this.writes.run(async () => {
      this.open();
      checkAddArguments(documents, options);
      checkBatchIds(documents, (id) => this.live.has(id));
      const pending = new MemorySegment(`memory-${this.segments.length + 1}`, this.settings, this.settings.storeSets);
      const decisions: AddDecision[] = [];
      // Each run of documents is decided as soon as it is signed, while the next is signed.
      await signTexts(
        documents.map((d) => d.text),
        this.signer,
        this.settings,
        this.settings.storeSets || usesShingleSets(this.settings.verify),
        (signed, from, to) => {
          decisions.push(
            ...this.engine.decide(this.segments, documents, signed, pending, options.all === true, from, to),
          );
        },
      );
      if (pending.count > 0) {
        const segment = this.segments.length;
        this.segments.push(pending);
        pending.ids.forEach((id, row) => this.live.set(id, { segment, row }));
      }
      return { decisions, added: pending.count, matched: decisions.filter((d) => d.matches.length > 0).length };
    });
  }

  async query(texts: readonly string[], options: QueryOptions = {}): Promise<readonly QueryResult[]> {
    this.open();
    checkQuery(texts, options); // the call's shape, as the other calls are checked
    const query = resolveQuery(texts, options, this.settings);
    const segments = [...this.segments]; // the state when the query began
    return this.engine.query(
      segments,
      await signTexts(texts, this.signer, this.settings, query.keepSets),
      query.options,
    );
  }

  remove(ids: readonly string[]): Promise<RemoveResult> {
    return this.writes.run(async () => {
      this.open();
      checkRemoveArguments(ids);
      let removed = 0;
      for (const id of new Set(ids)) {
        const at = this.live.get(id);
        if (at === undefined) continue;
        this.segments[at.segment].removed[at.row] = 1;
        this.live.delete(id);
        removed++;
      }
      this.removedCount += removed;
      return { removed };
    });
  }

  async stats(): Promise<IndexStats> {
    return {
      documents: this.live.size,
      removed: this.removedCount,
      segments: this.segments.length,
      bytesOnDisk: 0,
      parameters: this.parameters,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private open(): void {
    if (this.closed) throw new Error('the index is closed');
  }
}

/** Texts must be an array of strings; `top` as the options table says (src/lshIndex/arguments.ts). */
export function checkQuery(texts: readonly string[], options: QueryOptions): void {
  checkQueryArguments(texts, options);
}
