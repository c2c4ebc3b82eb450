/**
 * Forests (forest.ts) and sampled postings (postings.ts) of an index's
 * segments, built on the first top-K or containment query that needs each
 * and kept while the segment is in the index (by name: segments are
 * immutable, a removal only flags rows, read at query time).
 *
 * One thread's may be handed to another (`share`, `adopt`): their arrays lie
 * on SharedArrayBuffers (forestBuild.ts), so the server's query threads
 * build each segment's once between them, not once each (issue 39: 60–137 s
 * and 0.5 GiB a thread at 1 M documents). Adopted data is used for a segment
 * of the same name and row count only. Browser-safe.
 */
import { PrefixForest, forestShape, type ForestData } from './forest.js';
import type { IndexParameters } from './options.js';
import { ShinglePostings, type PostingsData } from './postings.js';
import type { IndexSegment } from './segment.js';

/** Segments' forests and postings as data, by segment name: what one thread hands another. */
export interface SharedForests {
  readonly forests: readonly (readonly [string, ForestData])[];
  readonly postings: readonly (readonly [string, PostingsData])[];
}

export class ForestCache {
  private readonly forests = new Map<string, PrefixForest>();
  private readonly postings = new Map<string, ShinglePostings>();
  /** Handed over by another thread, used when a segment of that name and count is asked for. */
  private adopted: SharedForests = { forests: [], postings: [] };

  constructor(private readonly parameters: IndexParameters) {}

  /** The segment's sampled shingle postings; undefined where it stores no sets. */
  postingsOf(segment: IndexSegment): ShinglePostings | undefined {
    if (!segment.hasSets) return undefined;
    let found = this.postings.get(segment.name);
    if (found === undefined || found.segment.count !== segment.count) {
      const data = this.adopted.postings.find(([name, d]) => name === segment.name && d.count === segment.count);
      found = new ShinglePostings(segment, undefined, data?.[1]);
      this.postings.set(segment.name, found);
    }
    return found;
  }

  forestsOf(segments: readonly IndexSegment[]): PrefixForest[] {
    const names = new Set(segments.map((s) => s.name));
    for (const name of this.forests.keys()) if (!names.has(name)) this.forests.delete(name);
    for (const name of this.postings.keys()) if (!names.has(name)) this.postings.delete(name);
    return segments.map((segment) => {
      let forest = this.forests.get(segment.name);
      if (forest === undefined || forest.segment.count !== segment.count) {
        const data = this.adopted.forests.find(([name, d]) => name === segment.name && d.count === segment.count);
        forest = new PrefixForest(segment, this.parameters, forestShape(this.parameters.k), data?.[1]);
        this.forests.set(segment.name, forest);
      }
      return forest;
    });
  }

  /**
   * The segments' forests (built where missing) and postings (those built, or all where `postings` and sets are
   * stored), as data for another thread.
   */
  share(segments: readonly IndexSegment[], postings: boolean): SharedForests {
    const forests = this.forestsOf(segments);
    return {
      forests: forests.map((f) => [f.segment.name, f.data] as const),
      postings: segments.flatMap((s) => {
        const built = postings ? this.postingsOf(s) : this.postings.get(s.name);
        return built === undefined || built.segment.count !== s.count ? [] : [[s.name, built.data] as const];
      }),
    };
  }

  /** Another thread's forests and postings, used from now on for the segments they were built from. */
  adopt(shared: SharedForests): void {
    this.adopted = shared;
  }
}
