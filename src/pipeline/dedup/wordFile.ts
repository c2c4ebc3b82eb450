/**
 * An append-only temporary file of 32-bit words (spilled rows, band keys, shingle sets), written behind: appends
 * are copied into 4 MiB blocks, or, for words nobody changes after (`appendOwned`), gathered where they lie, and the
 * file system's thread pool writes them (one `writev` per 4 MiB gathered) while this thread goes on, so the first
 * pass's main thread neither waits on the disk nor copies what it spills. Reads see every word appended, written yet
 * or not (those still in flight are copied from their parts). Past 64 MiB in flight, a copied block is written in
 * place (the disk is the limit then, and memory stays bounded); words appended where they lie always go behind, and
 * an appender that waits for `room` between appends stays below the bound. A copy block is used to its end and then
 * reused once written. A failed write is reported by the next append, read or drain; I/O errors name the file and
 * the option that moves it.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, writev, writeSync } from 'node:fs';
import { join } from 'node:path';
import { registerTemporary, removeTemporaryBehind } from '../../formats/files/temporaries.js';
import { freeNow } from '../../typedArrays.js';

const BLOCK_BYTES = 4 * 2 ** 20;
const MAX_BEHIND_BYTES = 64 * 2 ** 20;
/** An appender that waits for `room` keeps its writes behind under this, so it never reaches the bound above. */
const ROOM_BYTES = MAX_BEHIND_BYTES / 2;
/** Parts gathered for one write at most (well below any system's IOV_MAX). */
const MAX_PARTS = 256;
/** Written copy blocks kept for reuse (their pages stay mapped: no page faults on the next). */
const SPARE_BLOCKS = 4;

/** One write: parts end to end in the file from `start`. */
interface Block {
  /** Its first byte in the file. */
  readonly start: number;
  readonly parts: Uint8Array[];
  readonly bytes: number;
  /** A copy block whose last bytes are in this write: reusable once every write before it is done too. */
  readonly spent?: Uint8Array;
  /** Buffers given with their words (appendOwned's `given`): freed once this write is done. */
  readonly given: ArrayBufferLike[];
  written: boolean;
}

function tempPath(dir: string, what: string): string {
  return join(dir, `gpudedup-${process.pid}-${Date.now().toString(36)}-${randomBytes(6).toString('hex')}.${what}`);
}

export class WordFile {
  readonly path: string;
  private readonly fd: number;
  /** Bytes appended. */
  private size = 0;
  /**
   * Bytes [0, durable) are in the file; the writes in flight follow it in order, then the parts gathered for the next
   * write, then the bytes filled in the copy block.
   */
  private durable = 0;
  private readonly inFlight: Block[] = [];
  private inFlightBytes = 0;
  private gathered: Uint8Array[] = [];
  private gatheredBytes = 0;
  /** The copy block whose last bytes were gathered (reused once their write and every one before it is done). */
  private gatheredSpent: Uint8Array | undefined;
  /** The copy block: bytes [0, used) gathered or written, [used, used + filled) filled since. */
  private block: Uint8Array | undefined;
  private used = 0;
  private filled = 0;
  private readonly spare: Uint8Array[] = [];
  private failure: Error | undefined;
  private drained: (() => void)[] = [];
  /** Buffers given with the words gathered (appendOwned): they go with the next write. */
  private given: ArrayBufferLike[] = [];
  private waitingForRoom: (() => void)[] = [];
  private removed = false;

  constructor(
    dir: string,
    what: string,
    private readonly holding = 'spilled signatures',
  ) {
    this.path = tempPath(dir, what);
    // wx+: a new file, never one already there; registered so that exit and signals remove it.
    this.fd = this.io('create', () => openSync(this.path, 'wx+', 0o600));
    registerTemporary(this.path);
  }

  append(words: Uint32Array): void {
    this.throwIfFailed();
    const bytes = new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
    for (let at = 0; at < bytes.length; ) {
      if (this.block === undefined) {
        this.block = this.spare.pop() ?? new Uint8Array(BLOCK_BYTES);
        this.used = 0;
      }
      const n = Math.min(BLOCK_BYTES - this.used - this.filled, bytes.length - at);
      this.block.set(bytes.subarray(at, at + n), this.used + this.filled);
      this.filled += n;
      this.size += n;
      at += n;
      if (this.used + this.filled === BLOCK_BYTES) this.issue(true);
    }
  }

  /**
   * As append, for words that nobody changes after (a worker's answer): written from where they lie, not copied
   * (gathered with the others until 4 MiB go in one write). `given`: nobody reads their buffer again either, so the
   * file frees it (freeNow) once they are written or copied, rather than leave it to a collection.
   */
  appendOwned(words: Uint32Array, given = false): void {
    // A view of a larger buffer would hold all of it until written (a worker's answer holds more than the rows): copied.
    if (words.buffer.byteLength > 2 * words.byteLength || words.byteLength === 0) {
      this.append(words);
      if (given) freeNow(words.buffer);
      return;
    }
    this.throwIfFailed();
    this.cut();
    if (given) this.given.push(words.buffer);
    this.gathered.push(new Uint8Array(words.buffer, words.byteOffset, words.byteLength));
    this.gatheredBytes += words.byteLength;
    this.size += words.byteLength;
    // Always behind: its memory is held until written anyway, and whoever appends it may wait for room.
    if (this.gatheredBytes >= BLOCK_BYTES || this.gathered.length >= MAX_PARTS) this.issue(false);
  }

  /** Reads words [fromWord, fromWord + into.length) into `into`: from the file, or from parts not written yet. */
  read(into: Uint32Array, fromWord: number): void {
    this.throwIfFailed();
    const bytes = new Uint8Array(into.buffer, into.byteOffset, into.byteLength);
    const start = fromWord * 4;
    if (start + bytes.length > this.size)
      throw new Error(`${this.path}: the ${this.holding} end early (the temporary file was changed)`);
    const fromFile = Math.max(0, Math.min(bytes.length, this.durable - start));
    for (let done = 0; done < fromFile; ) {
      const n = this.io('read', () => readSync(this.fd, bytes, done, fromFile - done, start + done));
      if (n === 0) throw new Error(`${this.path}: the ${this.holding} end early (the temporary file was changed)`);
      done += n;
    }
    if (fromFile === bytes.length) return;
    for (const block of this.inFlight) copyOverlap(block, bytes, start);
    const filling = this.block?.subarray(this.used, this.used + this.filled) ?? new Uint8Array(0);
    const pending = this.gatheredBytes + this.filled;
    copyOverlap({ start: this.size - pending, bytes: pending, parts: [...this.gathered, filling] }, bytes, start);
  }

  /**
   * Undefined while the writes behind are few, else a promise that settles once they fall below ROOM_BYTES: an
   * appender that can wait (the first pass between units) then never writes in place on its own thread.
   */
  room(): Promise<void> | undefined {
    if (this.inFlightBytes <= ROOM_BYTES) return undefined;
    return new Promise<void>((resolve) => this.waitingForRoom.push(resolve));
  }

  /** Every word appended is in the file (the exact workers read it by its path). */
  async drain(): Promise<void> {
    this.issue(false);
    if (this.inFlight.length > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
    this.throwIfFailed();
  }

  /** Closes and removes the file (on the file system's threads: a spill of gigabytes takes a while to unlink). */
  remove(): Promise<void> {
    this.removed = true; // writes still in flight may fail now: nobody reads this file any more
    for (const resolve of this.waitingForRoom.splice(0)) resolve();
    closeSync(this.fd);
    return removeTemporaryBehind(this.path);
  }

  /** The bytes filled in the copy block join the parts gathered; a block used to its end is spent. */
  private cut(): void {
    if (this.block === undefined || this.filled === 0) return;
    this.gathered.push(this.block.subarray(this.used, this.used + this.filled));
    this.gatheredBytes += this.filled;
    this.used += this.filled;
    this.filled = 0;
    if (this.used === BLOCK_BYTES) {
      this.gatheredSpent = this.block;
      this.block = undefined;
    }
  }

  /** The parts gathered (and the bytes filled) go to the file: behind, or in place past the bound if `inPlace`. */
  private issue(inPlacePastBound: boolean): void {
    this.cut();
    if (this.gatheredBytes === 0) return;
    const block: Block = {
      start: this.size - this.gatheredBytes,
      parts: this.gathered,
      bytes: this.gatheredBytes,
      spent: this.gatheredSpent,
      given: this.given,
      written: false,
    };
    this.gathered = [];
    this.given = [];
    this.gatheredBytes = 0;
    this.gatheredSpent = undefined;
    this.inFlight.push(block);
    this.inFlightBytes += block.bytes;
    if (inPlacePastBound && this.inFlightBytes > MAX_BEHIND_BYTES) {
      for (const [part, at] of placed(block))
        for (let done = 0; done < part.length; )
          done += this.io('write', () => writeSync(this.fd, part, done, part.length - done, at + done));
      this.written(block);
    } else this.writeBehind(block, 0);
  }

  private writeBehind(block: Block, from: number): void {
    writev(this.fd, partsFrom(block.parts, from), block.start + from, (error, n) => {
      if (this.removed) return;
      if (error !== null) {
        this.failure ??= this.ioError('write', error);
        this.written(block);
      } else if (from + n < block.bytes) this.writeBehind(block, from + n);
      else this.written(block);
    });
  }

  /** A write is done: the file's durable end moves past every written one at the front (their spent blocks reused). */
  private written(block: Block): void {
    block.written = true;
    while (this.inFlight.length > 0 && this.inFlight[0].written) {
      const front = this.inFlight.shift()!;
      this.durable = front.start + front.bytes;
      this.inFlightBytes -= front.bytes;
      if (front.spent !== undefined && this.spare.length < SPARE_BLOCKS && this.failure === undefined)
        this.spare.push(front.spent);
      freeNow(...front.given);
    }
    if (this.inFlightBytes <= ROOM_BYTES) for (const resolve of this.waitingForRoom.splice(0)) resolve();
    if (this.inFlight.length === 0) for (const resolve of this.drained.splice(0)) resolve();
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  private io<T>(what: string, work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw this.ioError(what, error as Error);
    }
  }

  private ioError(what: string, error: Error): Error {
    return new Error(
      `cannot ${what} the temporary file ${this.path} for ${this.holding}: ${error.message} (choose ` +
        `another place with --temp-directory)`,
    );
  }
}

/** Each part of a write with its first byte in the file. */
function placed(block: Block): [Uint8Array, number][] {
  let at = block.start;
  return block.parts.map((part) => {
    const entry: [Uint8Array, number] = [part, at];
    at += part.length;
    return entry;
  });
}

/** The parts less their first `from` bytes (a write that went part of the way). */
export function partsFrom(parts: readonly Uint8Array[], from: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let skip = from;
  for (const part of parts) {
    if (skip >= part.length) skip -= part.length;
    else {
      out.push(skip > 0 ? part.subarray(skip) : part);
      skip = 0;
    }
  }
  return out;
}

/** Copies the bytes of a write's parts that fall in [start, start + into.length) into `into`. */
function copyOverlap(
  { start: first, bytes, parts }: Pick<Block, 'start' | 'bytes' | 'parts'>,
  into: Uint8Array,
  start: number,
): void {
  if (first >= start + into.length || first + bytes <= start) return;
  let at = first;
  for (const part of parts) {
    const from = Math.max(at, start);
    const to = Math.min(at + part.length, start + into.length);
    if (from < to) into.set(part.subarray(from - at, to - at), from - start);
    at += part.length;
  }
}
