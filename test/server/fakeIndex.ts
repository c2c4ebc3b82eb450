/**
 * A small `DedupIndex` for the server's tests: exact Jaccard of word sets,
 * by brute force, so what a query should answer is plain. An add decides
 * every document first and commits all at once at the end (as the real
 * indexes do with their manifest), and can be held open by a gate, so tests
 * can put queries in the middle of a write.
 */
import type {
  AddOptions,
  AddResult,
  DedupIndex,
  IndexDocument,
  IndexMatch,
  IndexStats,
  QueryOptions,
  QueryResult,
  RemoveResult,
} from '../../src/lshIndex/types.js';
import { IndexIdError } from '../../src/lshIndex/errors.js';

const words = (text: string): Set<string> => new Set(text.toLowerCase().split(/\s+/).filter(Boolean));

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let both = 0;
  for (const w of a) if (b.has(w)) both++;
  return both / (a.size + b.size - both);
}

export class FakeIndex implements DedupIndex {
  /** The committed state: id → word set. Replaced, never mutated, by a write. */
  private live = new Map<string, Set<string>>();
  /** Resolved to let the write held at the gate go on (tests set it before a write). */
  gate: Promise<void> | undefined;
  /** Called when a write reaches the gate (before it commits). */
  onGate: (() => void) | undefined;
  closed = false;
  adds = 0;

  constructor(readonly threshold = 0.5) {}

  private matchesOf(set: Set<string>, against: ReadonlyMap<string, Set<string>>, top?: number): IndexMatch[] {
    const all = [...against].map(([id, other]) => ({ id, similarity: jaccard(set, other) }));
    all.sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1));
    return top === undefined ? all.filter((m) => m.similarity >= this.threshold) : all.slice(0, top);
  }

  async query(texts: readonly string[], options?: QueryOptions): Promise<readonly QueryResult[]> {
    if (this.closed) throw new Error('the index is closed');
    const live = this.live;
    return texts.map((text) => ({ matches: this.matchesOf(words(text), live, options?.top) }));
  }

  async add(documents: readonly IndexDocument[], options?: AddOptions): Promise<AddResult> {
    if (this.closed) throw new Error('the index is closed');
    const next = new Map(this.live);
    const decisions = documents.map((doc, i) => {
      if (next.has(doc.id)) throw new IndexIdError('indexed', doc.id, [i + 1]);
      const set = words(doc.text);
      const matches = this.matchesOf(set, next);
      const added = options?.all === true || matches.length === 0;
      if (added) next.set(doc.id, set);
      return { id: doc.id, added, matches };
    });
    if (this.gate) {
      this.onGate?.();
      await this.gate;
    }
    this.live = next; // the commit
    this.adds++;
    const added = decisions.filter((d) => d.added).length;
    return { decisions, added, matched: decisions.filter((d) => d.matches.length > 0).length };
  }

  async remove(ids: readonly string[]): Promise<RemoveResult> {
    const next = new Map(this.live);
    let removed = 0;
    for (const id of ids) if (next.delete(id)) removed++;
    this.live = next;
    return { removed };
  }

  async stats(): Promise<IndexStats> {
    return {
      documents: this.live.size,
      removed: 0,
      segments: 1,
      bytesOnDisk: 0,
      parameters: { threshold: this.threshold, seed: 42n },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
