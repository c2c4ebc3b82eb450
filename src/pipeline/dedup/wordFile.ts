/**
 * An append-only temporary file of 32-bit words (spilled rows, band keys, shingle sets), written behind: appends
 * are copied into 4 MiB blocks that the file system's thread pool writes while this thread goes on, so the first
 * pass's main thread does not wait on the disk. Reads see every word appended, written yet or not (those still in
 * flight are copied from their block). Past 64 MiB in flight, a copied block is written in place (the disk is the
 * limit then, and memory stays bounded); arrays appended where they lie always go behind, and an appender that waits
 * for `room` between appends stays below the bound. A failed write is reported by the next append, read or drain; I/O errors name the
 * file and the option that moves it.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, write, writeSync } from 'node:fs';
import { join } from 'node:path';
import { registerTemporary, removeTemporaryBehind } from '../../formats/files/temporaries.js';

const BLOCK_BYTES = 4 * 2 ** 20;
const MAX_BEHIND_BYTES = 64 * 2 ** 20;
/** An appender that waits for `room` keeps its writes behind under this, so it never reaches the bound above. */
const ROOM_BYTES = MAX_BEHIND_BYTES / 2;
/** appendOwned writes arrays this large from where they lie; smaller ones are copied into a block. */
const OWNED_BYTES = 256 * 2 ** 10;

interface Block {
  /** Its first byte in the file. */
  readonly start: number;
  readonly bytes: Uint8Array;
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
  /** Bytes [0, durable) are in the file; the blocks in flight follow it in order, then the one being filled. */
  private durable = 0;
  private readonly inFlight: Block[] = [];
  private inFlightBytes = 0;
  private filling = new Uint8Array(0);
  private filled = 0;
  private failure: Error | undefined;
  private drained: (() => void)[] = [];
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
      if (this.filling.length === 0) this.filling = new Uint8Array(BLOCK_BYTES);
      const n = Math.min(BLOCK_BYTES - this.filled, bytes.length - at);
      this.filling.set(bytes.subarray(at, at + n), this.filled);
      this.filled += n;
      this.size += n;
      at += n;
      if (this.filled === BLOCK_BYTES) this.issue();
    }
  }

  /**
   * As append, for words that nobody changes after (a worker's answer): a large array is written from where it lies,
   * not copied (its own block in flight).
   */
  appendOwned(words: Uint32Array): void {
    if (words.byteLength < OWNED_BYTES) {
      this.append(words);
      return;
    }
    this.throwIfFailed();
    this.issue();
    this.size += words.byteLength;
    // Always behind: its memory is held until written anyway, and whoever appends it may wait for room.
    this.send(new Uint8Array(words.buffer, words.byteOffset, words.byteLength), false);
  }

  /** Reads words [fromWord, fromWord + into.length) into `into`: from the file, or from a block not written yet. */
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
    const filling = { start: this.size - this.filled, bytes: this.filling.subarray(0, this.filled) };
    for (const block of [...this.inFlight, filling]) copyOverlap(block, bytes, start);
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
    this.issue();
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

  /** The block being filled goes to the file. */
  private issue(): void {
    if (this.filled === 0) return;
    const bytes = this.filling.subarray(0, this.filled);
    this.filling = new Uint8Array(0);
    this.filled = 0;
    this.send(bytes, true);
  }

  /** The last `bytes.length` bytes appended go to the file: behind, or a copied block in place past the bound. */
  private send(bytes: Uint8Array, inPlacePastBound: boolean): void {
    const block: Block = { start: this.size - bytes.length, bytes, written: false };
    this.inFlight.push(block);
    this.inFlightBytes += block.bytes.length;
    if (inPlacePastBound && this.inFlightBytes > MAX_BEHIND_BYTES) {
      for (let done = 0; done < block.bytes.length; )
        done += this.io('write', () =>
          writeSync(this.fd, block.bytes, done, block.bytes.length - done, block.start + done),
        );
      this.written(block);
    } else this.writeBehind(block, 0);
  }

  private writeBehind(block: Block, from: number): void {
    write(this.fd, block.bytes, from, block.bytes.length - from, block.start + from, (error, n) => {
      if (this.removed) return;
      if (error !== null) {
        this.failure ??= this.ioError('write', error);
        this.written(block);
      } else if (from + n < block.bytes.length) this.writeBehind(block, from + n);
      else this.written(block);
    });
  }

  /** A block is written: the file's durable end moves past every written block at the front. */
  private written(block: Block): void {
    block.written = true;
    while (this.inFlight.length > 0 && this.inFlight[0].written) {
      const front = this.inFlight.shift()!;
      this.durable = front.start + front.bytes.length;
      this.inFlightBytes -= front.bytes.length;
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

/** Copies the bytes of `block` that fall in [start, start + into.length) into `into`. */
function copyOverlap(block: { start: number; bytes: Uint8Array }, into: Uint8Array, start: number): void {
  const from = Math.max(block.start, start);
  const to = Math.min(block.start + block.bytes.length, start + into.length);
  if (from < to) into.set(block.bytes.subarray(from - block.start, to - block.start), from - start);
}
