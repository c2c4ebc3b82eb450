/**
 * The exact pass's shingle sets past the host's share of `--memory-limit` (textWorkers.ts): a worker writes the sets
 * of a run of ranges to a file of its own instead of shared memory, and the deciding workers read each set back when a
 * pair needs it. The file lies in the page cache, which the system may reclaim, not in the process's resident set.
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

/**
 * Reads sets of FileSets back (through the stage workers' spill reader, wordReader.ts), each into one of two scratch
 * arrays (a pair's two sets), valid until that slot is read into again.
 */
export class FileSetReader {
  private readonly files = new Map<string, WordReader>();
  private readonly scratch = [new Uint32Array(1 << 14), new Uint32Array(1 << 14)];

  read(part: FileSets, i: number, slot: 0 | 1): Uint32Array {
    const [from, to] = [part.offsets[i], part.offsets[i + 1]];
    const length = to - from;
    if (this.scratch[slot].length < length)
      this.scratch[slot] = new Uint32Array(Math.max(length, 2 * this.scratch[slot].length));
    const set = this.scratch[slot].subarray(0, length);
    let file = this.files.get(part.file);
    if (file === undefined) this.files.set(part.file, (file = openWords(part.file)));
    file.read(set, from);
    return set;
  }

  close(): void {
    for (const file of this.files.values()) file.close();
    this.files.clear();
  }
}
