/**
 * The persistent index's class (Node): its state, the writer's commits and
 * merges (docs/index.md, "On-disk format"); diskIndex.ts creates and opens it.
 */
import { usesShingleSets } from '../verify/verification.js';
import { compactSegments } from './compaction.js';
import { loadExactKeys } from './exactKeys.js';
import { closeDropped, openState, openWithRetry, writeRemoved, type IndexState } from './diskState.js';
import { mergedManifest, relocate, removedAfter } from './diskMerge.js';
import { DiskSigner } from './diskSigner.js';
import type { SharedForests } from './forestCache.js';
import { mergeDue } from './mergePolicy.js';
import { checkAddArguments, checkRemoveArguments } from './arguments.js';
import { checkBatchIds, IndexEngine, type Located } from './engine.js';
import type { WriterLock } from './lock.js';
import {
  readManifest,
  removedName,
  removeUnreferenced,
  segmentName,
  writeManifest,
  type Manifest,
} from './manifest.js';
import { checkQuery, WriteQueue } from './memoryIndex.js';
import { resolveQuery, type IndexParameters, type OpenOptions } from './options.js';
import { MemorySegment } from './segment.js';
import { writeMemorySegment } from './segmentFiles.js';
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

export interface CompactResult {
  readonly segmentsBefore: number;
  readonly documents: number;
  /** Removed documents dropped from the segments. */
  readonly dropped: number;
}

export interface DiskIndex extends DedupIndex {
  readonly dir: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  /** A stale lock taken over at open (its writer had died), as a note; undefined otherwise. */
  readonly lockNote?: string;
  /** Readers: pick up the newest manifest (a writer's commit). */
  refresh(): Promise<void>;
  /** Merges the live segments into one and drops removed documents (one commit). */
  compact(): Promise<CompactResult>;
  /** Why the last automatic merge after an add failed (the add itself committed); undefined when it did not. */
  readonly writeProblem?: string;
  /** This state's forests (and postings: all, or those built), built where missing, for another thread to adopt. */
  shareForests?(postings: boolean): SharedForests;
  adoptForests?(shared: SharedForests): void;
}

export class PersistentIndex implements DiskIndex {
  private readonly engine: IndexEngine;
  private readonly settings: IndexParameters;
  private readonly writes = new WriteQueue();
  private readonly signer: DiskSigner;
  /** Live id → place, built on the first add or remove (readers never need it). */
  private live?: Map<string, Located>;
  private closed = false;
  private mergeFailure?: string;

  constructor(
    readonly dir: string,
    private state: IndexState,
    private readonly options: OpenOptions,
    private readonly lock?: WriterLock,
  ) {
    this.settings = state.manifest.parameters;
    this.engine = new IndexEngine(this.settings);
    this.signer = new DiskSigner(this.settings, options);
  }

  get parameters(): Readonly<Record<string, unknown>> {
    return { ...this.settings };
  }

  get lockNote(): string | undefined {
    return this.lock?.note;
  }

  async query(texts: readonly string[], options: QueryOptions = {}): Promise<readonly QueryResult[]> {
    this.ensureOpen();
    checkQuery(texts, options);
    const query = resolveQuery(texts, options, this.settings);
    const state = this.state; // one state from here
    if (query.options.top !== undefined && query.options.containment === undefined)
      await loadExactKeys(state, this.dir);
    return this.engine.query(state.views, await this.signer.sign(texts, query.keepSets), query.options);
  }

  add(documents: readonly IndexDocument[], options: AddOptions = {}): Promise<AddResult> {
    return this.writes.run(async () => {
      checkAddArguments(documents, options);
      const live = this.writer('add');
      checkBatchIds(documents, (id) => live.has(id));
      const { manifest, views } = this.state;
      const name = segmentName(manifest.generation + 1);
      const pending = new MemorySegment(name, this.settings, this.settings.storeSets);
      const decisions: AddDecision[] = [];
      // Each run of documents is decided as soon as it is signed, while the workers sign the next.
      await this.signer.sign(
        documents.map((d) => d.text),
        this.settings.storeSets || usesShingleSets(this.settings.verify),
        (signed, from, to) => {
          decisions.push(...this.engine.decide(views, documents, signed, pending, options.all === true, from, to));
        },
      );
      if (pending.count > 0) {
        this.commit(() => {
          const record = writeMemorySegment(this.dir, name, pending);
          return {
            ...manifest,
            generation: manifest.generation + 1,
            segments: [...manifest.segments, record],
            documents: manifest.documents + pending.count,
          };
        });
        const segment = this.state.manifest.segments.length - 1;
        pending.ids.forEach((id, row) => live.set(id, { segment, row }));
        await this.mergeSmall();
      }
      return { decisions, added: pending.count, matched: decisions.filter((d) => d.matches.length > 0).length };
    });
  }

  remove(ids: readonly string[]): Promise<RemoveResult> {
    return this.writes.run(async () => {
      checkRemoveArguments(ids);
      const live = this.writer('remove');
      const { manifest } = this.state;
      const { removed, count } = removedAfter(this.state, live, ids);
      if (count === 0) return { removed: 0 };
      this.commit(() => {
        const generation = manifest.generation + 1;
        const entry = writeRemoved(this.dir, removedName(generation), removed);
        return {
          ...manifest,
          generation,
          removed: entry,
          documents: manifest.documents - count,
          removedDocuments: manifest.removedDocuments + count,
        };
      });
      for (const id of ids) live.delete(id);
      return { removed: count };
    });
  }

  compact(): Promise<CompactResult> {
    return this.writes.run(async () => {
      this.writer('compact');
      const { manifest } = this.state;
      const result: CompactResult = {
        segmentsBefore: manifest.segments.length,
        documents: manifest.documents,
        dropped: manifest.removedDocuments,
      };
      if (manifest.segments.length <= 1 && manifest.removedDocuments === 0) return result;
      await this.merge(0, manifest.segments.length);
      this.live = undefined; // every place changed
      return result;
    });
  }

  /**
   * Merges segments [from, to) into one (one commit; compaction.ts reads
   * and checks what it copies), the id map moved to the new places.
   */
  private async merge(from: number, to: number): Promise<void> {
    const generation = this.state.manifest.generation + 1;
    const record = await compactSegments(this.dir, segmentName(generation), this.settings, this.state, from, to);
    const before = this.state;
    this.commit(() => mergedManifest(this.dir, before, from, to, record, generation));
    if (this.live !== undefined) relocate(this.live, from, to, record.count > 0 ? this.state.views[from] : undefined);
  }

  /**
   * After a committed add: the runs of small segments the merge policy says
   * are due, each its own commit. A merge that fails leaves the add
   * committed (it is not undone, nor reported as failed): the failure is
   * kept in `writeProblem` and the merge tried again after the next add.
   */
  private async mergeSmall(): Promise<void> {
    try {
      for (let run = this.dueRun(); run !== undefined; run = this.dueRun()) await this.merge(run.from, run.to);
      this.mergeFailure = undefined;
    } catch (error) {
      this.mergeFailure = `merging segments after the add failed (the add is committed; the merge is tried again after the next add): ${(error as Error).message}`;
    }
  }

  private dueRun(): { from: number; to: number } | undefined {
    return mergeDue(this.state.manifest.segments.map((s) => s.count));
  }

  get writeProblem(): string | undefined {
    return this.mergeFailure;
  }

  shareForests(postings: boolean): SharedForests {
    this.ensureOpen();
    return this.engine.forests.share(this.state.views, postings);
  }

  adoptForests(shared: SharedForests): void {
    this.engine.forests.adopt(shared);
  }

  async refresh(): Promise<void> {
    this.ensureOpen();
    const manifest = readManifest(this.dir);
    if (manifest.generation === this.state.manifest.generation) return;
    this.swap(openWithRetry(this.dir, manifest, this.options.checksums, this.state));
  }

  async stats(): Promise<IndexStats> {
    this.ensureOpen();
    const { manifest } = this.state;
    let bytesOnDisk = 0;
    for (const s of manifest.segments) for (const f of Object.values(s.files)) bytesOnDisk += f?.bytes ?? 0;
    bytesOnDisk += manifest.removed?.bytes ?? 0;
    return {
      documents: manifest.documents,
      removed: manifest.removedDocuments,
      segments: manifest.segments.length,
      bytesOnDisk,
      parameters: this.parameters,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.writes.run(async () => undefined); // the write in flight finishes first
    this.closed = true;
    closeDropped(this.state, undefined);
    this.signer.destroy();
    this.lock?.release();
  }

  /** Writes the next manifest (built by `write`, which writes its new files first), then opens its state. */
  private commit(write: () => Manifest): void {
    const before = this.state.manifest;
    let next: Manifest | undefined;
    try {
      next = write();
      writeManifest(this.dir, next);
    } catch (error) {
      // Before the rename the previous manifest stands: remove what was written. After it, the new one does.
      const current = readManifest(this.dir);
      if (current.generation === before.generation) removeUnreferenced(this.dir, before);
      else this.swap(openState(this.dir, current, 'lazy', this.state));
      throw error;
    }
    this.swap(openState(this.dir, next, 'lazy', this.state)); // files just written and checksummed here
    removeUnreferenced(this.dir, next); // superseded files (a compaction's, an older removed list)
  }

  private swap(next: IndexState): void {
    const old = this.state;
    this.state = next;
    closeDropped(old, next);
    if (old.manifest.generation !== next.manifest.generation && this.lock === undefined) this.live = undefined;
  }

  /** The writer's id map, refusing a read-only or closed index. */
  private writer(what: string): Map<string, Located> {
    this.ensureOpen();
    if (this.lock === undefined)
      throw new Error(`${this.dir}: opened read-only, cannot ${what}; open it without readOnly (one writer at a time)`);
    if (this.live === undefined) {
      const live = new Map<string, Located>();
      this.state.views.forEach((view, segment) => {
        for (let row = 0; row < view.count; row++) if (!view.isRemoved(row)) live.set(view.id(row), { segment, row });
      });
      this.live = live;
    }
    return this.live;
  }

  private ensureOpen(): void {
    if (this.closed) throw new Error(`${this.dir}: the index is closed`);
  }
}
