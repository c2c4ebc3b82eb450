/**
 * The exact pass's shingle sets past the host's share of `--memory-limit` (textWorkers.ts): a worker writes the sets
 * of a run of ranges to a file of its own instead of shared memory, and the deciding workers read the sets back: the
 * runs' leads front to back in blocks, the other sets one at a time (FileSetReader). The file lies in the page cache,
 * which the system may reclaim, not in the process's resident set.
 */
import { closeSync, openSync } from 'node:fs';
import { writeAll } from '../writeAll.js';
import type { WordReader } from '../workers/wordFiles.js';
import { openWords } from '../workers/wordReader.js';

/** Sets end to end in `file`: set i is the words [offsets[i], offsets[i + 1]) counted from the file's start. */
export interface FileSets {
  readonly file: string;
  readonly offsets: Float64Array;
}

/** Words buffered before a write. */
const BUFFER_WORDS = 1 << 20;

/** Appends sets to a new file, a megabyte at a time; `finish` closes it and says where each set lies. */
export class FilePacker {
  private readonly fd: number;
  private readonly buffer = new Uint32Array(BUFFER_WORDS);
  private used = 0;
  private readonly offsets: number[] = [0];

  constructor(private readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  add(set: Uint32Array): void {
    if (this.used + set.length > this.buffer.length) this.flush();
    if (set.length > this.buffer.length) this.write(set);
    else {
      this.buffer.set(set, this.used);
      this.used += set.length;
    }
    this.offsets.push(this.offsets[this.offsets.length - 1] + set.length);
  }

  finish(): FileSets[] {
    this.flush();
    closeSync(this.fd);
    return [{ file: this.path, offsets: Float64Array.from(this.offsets) }];
  }

  private flush(): void {
    this.write(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  private write(words: Uint32Array): void {
    writeAll(this.fd, new Uint8Array(words.buffer, words.byteOffset, words.byteLength));
  }
}

/** Words a forward block reads at least: a megabyte, as the packer writes them. */
const BLOCK_WORDS = 1 << 18;

/**
 * Reads sets of FileSets back (through the stage workers' spill reader, wordReader.ts), each into one of two scratch
 * arrays (a pair's two sets), valid until that slot is read into again. Slot 0 (a run's lead: in file order,
 * groupedPairs) reads ahead a block at a time, so that leads coming front to back cost one read a megabyte rather than
 * one a set; slot 1 (the other set, anywhere behind) reads just the set.
 */
export class FileSetReader {
  private readonly files = new Map<string, WordReader>();
  private readonly scratch = [new Uint32Array(1 << 14), new Uint32Array(1 << 14)];
  /** Slot 0's block: words [blockFrom, blockFrom + blockWords) of `blockFile`, in scratch[0]. */
  private blockFile = '';
  private blockFrom = 0;
  private blockWords = 0;

  constructor(private readonly aheadWords = BLOCK_WORDS) {}

  read(part: FileSets, i: number, slot: 0 | 1): Uint32Array {
    const [from, to] = [part.offsets[i], part.offsets[i + 1]];
    if (slot === 1) return this.fill(part.file, 1, from, to - from);
    const inBlock = part.file === this.blockFile && from >= this.blockFrom && to <= this.blockFrom + this.blockWords;
    if (!inBlock) {
      const words = Math.min(Math.max(to - from, this.aheadWords), part.offsets[part.offsets.length - 1] - from);
      this.fill(part.file, 0, from, words);
      [this.blockFile, this.blockFrom, this.blockWords] = [part.file, from, words];
    }
    return this.scratch[0].subarray(from - this.blockFrom, to - this.blockFrom);
  }

  close(): void {
    for (const file of this.files.values()) file.close();
    this.files.clear();
    this.blockFile = '';
  }

  /** Words [from, from + length) of `path` into slot `slot`'s scratch, a view of them. */
  private fill(path: string, slot: 0 | 1, from: number, length: number): Uint32Array {
    if (this.scratch[slot].length < length)
      this.scratch[slot] = new Uint32Array(Math.max(length, 2 * this.scratch[slot].length));
    const words = this.scratch[slot].subarray(0, length);
    let file = this.files.get(path);
    if (file === undefined) this.files.set(path, (file = openWords(path)));
    if (length > 0) file.read(words, from);
    return words;
  }
}
