/**
 * The first pass's shingle sets past their share of --memory-limit: held in
 * memory up to it, then appended to a temporary file beside the spilled rows
 * (rowSpill.ts's WordFile). Exact Jaccard reads each set when a comparison
 * needs it (`fetch`: held, or from the file through an 8 MiB ring that keeps
 * the most recent), so that no pair is decided by the estimate for want of
 * memory; `load` reads back the sets a stage needs, up to a budget (the
 * audit's sample).
 *
 * The first pass's per-document tables share the room (`reserve`): as they
 * grow, the latest sets held move to the file, so that the two together stay
 * within it (unless the tables alone pass it).
 */
import type { FetchShingleSet, LoadShingleSets } from '../../verify/shingleSetStore.js';
import { freeNow, grown } from '../../typedArrays.js';
import type { SetSpool, SharedSets } from '../../firstPass/setSpool.js';
import { SetArena, sharedMemoryAvailable } from '../../firstPass/sharedSets.js';
import { WordFile } from './wordFile.js';
import { freemem } from 'node:os';

/** Whether `set` ends where `next` starts, in one buffer. */
function adjoins(set: Uint32Array, next: Uint32Array): boolean {
  return set.buffer === next.buffer && set.byteOffset + set.byteLength === next.byteOffset;
}

/** 8 MiB: the ring that sets read one at a time go through (no allocation a read); larger sets get their own array. */
const FETCH_RING_WORDS = 2 ** 21;

export class FileSetSpool implements SetSpool {
  /**
   * The sets held in memory: those of groups [0, held.length), each a view of the shared arena (worker threads
   * read them there), or of its unit's buffer without shared memory.
   */
  private readonly held: Uint32Array[] = [];
  private readonly arena = sharedMemoryAvailable() ? new SetArena() : undefined;
  /** Per group: its arena chunk while held, −1 once in the file. */
  private chunk = new Int32Array(1024);
  private heldBytes = 0;
  /** Bytes of other data that share the sets' room (the first pass's per-document tables): `reserve`. */
  private reservedBytes = 0;
  private file: WordFile | undefined;
  /** Groups appended. */
  private groups = 0;
  /** Per group: its first word in the file, or in its arena chunk while held; and its length in words. */
  private starts = new Float64Array(1024);
  private lengths = new Uint32Array(1024);
  private words = 0;
  /**
   * Sets fetched from the file: in the ring, from word 0 up to `ringAt`, each group's first word (emptied when it
   * wraps).
   */
  private ring = new Uint32Array(0);
  private ringAt = 0;
  private readonly inRing = new Map<number, number>();

  constructor(
    private readonly dir: string,
    private readonly memoryBytes: number,
    private readonly onSpill?: () => void,
    /** The memory the page cache may use (what the system has available when the sets are shared). */
    private readonly cacheRoomBytes: () => number = freemem,
  ) {}

  // No `adoptsShared`: the CLI's sets are copied into the arena as they come. Held where they lie, in the workers'
  // shared buffers, they cost the 1 M run 0.15–0.2 GiB more peak memory (a shared buffer is freed only once every
  // thread that saw it has collected it), past the 1.5 GiB target; sets that come shared are still held where they lie.
  append(set: Uint32Array): void {
    const g = this.groups++;
    if (g === this.starts.length) this.grow();
    this.lengths[g] = set.length;
    if (this.file === undefined && this.reservedBytes + this.heldBytes + set.byteLength <= this.memoryBytes) {
      this.held.push(this.hold(g, set));
      this.heldBytes += set.byteLength;
      return;
    }
    this.write(g, set);
  }

  /** As append for each set; those bound for the file go as one run (WordFile.appendOwned: large runs not copied). */
  appendRun(words: Uint32Array, offsets: Uint32Array, count: number, given = false): void {
    let i = 0;
    for (; i < count && this.file === undefined; i++) this.append(words.subarray(2 * offsets[i], 2 * offsets[i + 1]));
    // The sets held were copied into the arena: the buffer is the file's from here on (or nobody's).
    const free = given && this.arena !== undefined;
    if (i === count) {
      if (free) freeNow(words.buffer);
      return;
    }
    const first = 2 * offsets[i];
    for (; i < count; i++) {
      const g = this.groups++;
      if (g === this.starts.length) this.grow();
      this.lengths[g] = 2 * (offsets[i + 1] - offsets[i]);
      this.chunk[g] = -1;
      this.starts[g] = this.words + 2 * offsets[i] - first;
    }
    const run = words.subarray(first, 2 * offsets[count]);
    this.words += run.length;
    this.file!.appendOwned(run, free);
  }

  /** The set as held: copied into the arena (its unit's buffer is then freed), or a view of that buffer. */
  private hold(g: number, set: Uint32Array): Uint32Array {
    if (this.arena === undefined) return set; // a view of its unit's buffer, which holds only selected sets
    const placed = this.arena.add(set);
    this.chunk[g] = placed.chunk;
    this.starts[g] = placed.start;
    return placed.view;
  }

  room(): Promise<void> | undefined {
    return this.file?.room();
  }

  /** Where each set lies for worker threads (drain first: they read the file by its path); undefined without shared memory. */
  share(): SharedSets | undefined {
    if (this.arena === undefined) return undefined;
    return {
      chunks: this.arena.chunks,
      chunk: this.chunk.slice(0, this.groups),
      start: this.starts.slice(0, this.groups),
      length: this.lengths.slice(0, this.groups),
      file: this.file?.path,
      // Past half the room, the later stages' own memory (the candidates' rows) leaves the cache less than the file.
      readInFileOrder: this.file !== undefined && 4 * this.words > this.cacheRoomBytes() / 2,
    };
  }

  /**
   * Counts `bytes` of other data against the sets' room from now on (replacing what was reserved before);
   * the latest sets held move to the file until the two fit (whole units' buffers are freed as they go).
   */
  reserve(bytes: number): void {
    this.reservedBytes = bytes;
    this.moveHeld(Math.max(0, this.memoryBytes - this.reservedBytes));
  }

  /**
   * The first pass is over. When the sets spilled, those still held go to the file too: comparisons read
   * them from there as they read the others, and their room is free for the stages after the pass (the
   * candidates' rows). When they all fit, they stay.
   */
  async passDone(): Promise<void> {
    if (this.file === undefined) return;
    this.moveHeld(0);
    // Written from where they lie: their memory is free once the writes are done, before the next stages take theirs.
    await this.file.drain();
  }

  /**
   * Moves the latest sets held to the file until at most `bytes` are held (whole units' buffers are freed as they go).
   */
  private moveHeld(bytes: number): void {
    let freedFrom: { chunk: number; start: number } | undefined;
    // Groups [g, end) to go, their sets end to end in `run` (sets adopted from one worker's buffer go as one run).
    let run: Uint32Array | undefined;
    let end = this.held.length;
    while (this.held.length > 0 && (this.heldBytes > bytes || bytes === 0)) {
      const g = this.held.length - 1;
      const set = this.held.pop()!;
      this.heldBytes -= set.byteLength;
      freedFrom = { chunk: this.chunk[g], start: this.starts[g] };
      if (run !== undefined && adjoins(set, run))
        run = new Uint32Array(set.buffer, set.byteOffset, set.length + run.length);
      else {
        if (run !== undefined) this.writeRun(g + 1, end, run);
        run = set;
        end = g + 1;
      }
    }
    if (run !== undefined) this.writeRun(this.held.length, end, run);
    if (freedFrom !== undefined) this.arena?.truncate(freedFrom.chunk, freedFrom.start);
  }

  /** Groups [first, end), their sets end to end in `words` as held, to the file. */
  private writeRun(first: number, end: number, words: Uint32Array): void {
    this.fileOf();
    for (let g = first, at = 0; g < end; at += this.lengths[g++]) {
      this.chunk[g] = -1;
      this.starts[g] = this.words + at;
    }
    this.words += words.length;
    // Written from where it lies, behind this thread: once a set has moved, the file exists and nothing is held, so
    // nobody writes into the arena (nor into a unit's buffer) again.
    this.file!.appendOwned(words);
  }

  readonly load: LoadShingleSets = async (needed, budgetBytes) => {
    const out: (Uint32Array | undefined)[] = new Array(needed.length);
    let bytes = 0;
    for (let g = 0; g < needed.length; g++) {
      if (needed[g] !== 1) continue;
      const size = g < this.held.length ? this.held[g].byteLength : this.lengths[g] * 4;
      if (bytes + size > budgetBytes) break; // the memory limit: the rest are fetched one at a time
      out[g] = g < this.held.length ? this.held[g] : this.read(g);
      bytes += size;
    }
    return out;
  };

  /**
   * Group g's set: held, or read from the file into the ring (valid until the ring wraps past it: at least one
   * more fetch, as FetchShingleSet promises, since a set in the ring is at most a quarter of it).
   */
  readonly fetch: FetchShingleSet = (g) => {
    if (g < this.held.length) return this.held[g];
    const length = this.lengths[g];
    if (length > FETCH_RING_WORDS / 4) return this.read(g);
    const at = this.inRing.get(g);
    if (at !== undefined) return this.ring.subarray(at, at + length);
    if (this.ring.length === 0) this.ring = new Uint32Array(FETCH_RING_WORDS);
    if (this.ringAt + length > this.ring.length) {
      this.ringAt = 0;
      this.inRing.clear();
    }
    const set = this.ring.subarray(this.ringAt, this.ringAt + length);
    if (length > 0) this.file!.read(set, this.starts[g]);
    this.inRing.set(g, this.ringAt);
    this.ringAt += length;
    return set;
  };

  async release(): Promise<void> {
    this.held.length = 0;
    this.heldBytes = 0;
    this.ring = new Uint32Array(0);
    this.ringAt = 0;
    this.inRing.clear();
    this.arena?.truncate(0, 0);
    const file = this.file;
    this.file = undefined;
    await file?.remove();
  }

  private read(g: number): Uint32Array {
    const set = new Uint32Array(this.lengths[g]);
    if (set.length > 0) this.file!.read(set, this.starts[g]);
    return set;
  }

  /** Group g's set to the file (written behind: WordFile). */
  private write(g: number, set: Uint32Array): void {
    this.fileOf();
    this.chunk[g] = -1;
    this.starts[g] = this.words;
    this.words += set.length;
    this.file!.append(set);
  }

  private fileOf(): WordFile {
    if (this.file === undefined) {
      this.file = new WordFile(this.dir, 'sets', 'spilled shingle sets');
      this.onSpill?.();
    }
    return this.file;
  }

  /** Every set appended is in the file: what the exact workers read by its path. */
  async drain(): Promise<void> {
    await this.file?.drain();
  }

  private grow(): void {
    const length = this.starts.length * 2;
    this.starts = grown(this.starts, length);
    this.lengths = grown(this.lengths, length);
    this.chunk = grown(this.chunk, length);
  }
}
