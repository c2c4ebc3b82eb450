/**
 * The first pass's shingle sets past their share of --memory-limit: held in
 * memory up to it, then appended to a temporary file beside the spilled rows
 * (rowSpill.ts's WordFile), and read back for the groups a stage needs only,
 * in file order, up to the budget that stage is given.
 */
import type { LoadShingleSets } from '../clusters/shingleSetStore.js';
import type { SetSpool } from '../firstPass/setSpool.js';
import { WordFile } from './rowSpill.js';

export class FileSetSpool implements SetSpool {
  private readonly held: (Uint32Array | undefined)[] = [];
  private heldBytes = 0;
  private file: WordFile | undefined;
  /** Per group on disk: its first word in the file (−1: held in memory), and its length in words. */
  private starts = new Float64Array(1024);
  private lengths = new Uint32Array(1024);
  private words = 0;

  constructor(
    private readonly dir: string,
    private readonly memoryBytes: number,
    private readonly onSpill?: () => void,
  ) {}

  append(set: Uint32Array): void {
    const g = this.held.length;
    if (g === this.starts.length) this.grow();
    if (this.file === undefined && this.heldBytes + set.byteLength <= this.memoryBytes) {
      this.held.push(set); // a view of its unit's buffer, which holds only selected sets
      this.heldBytes += set.byteLength;
      this.starts[g] = -1;
      return;
    }
    if (this.file === undefined) {
      this.file = new WordFile(this.dir, 'sets', 'spilled shingle sets');
      this.onSpill?.();
    }
    this.held.push(undefined);
    this.file.append(set);
    this.starts[g] = this.words;
    this.lengths[g] = set.length;
    this.words += set.length;
  }

  readonly load: LoadShingleSets = async (needed, budgetBytes) => {
    const out: (Uint32Array | undefined)[] = new Array(needed.length);
    let bytes = 0;
    for (let g = 0; g < needed.length; g++) {
      if (needed[g] !== 1) continue;
      const set = this.held[g] ?? this.read(g);
      if (bytes + set.byteLength > budgetBytes) break; // the memory limit: the rest are decided by the estimate
      out[g] = set;
      bytes += set.byteLength;
    }
    return out;
  };

  release(): void {
    this.held.length = 0;
    this.file?.remove();
    this.file = undefined;
  }

  private read(g: number): Uint32Array {
    const set = new Uint32Array(this.lengths[g]);
    if (set.length > 0) this.file!.read(set, this.starts[g]);
    return set;
  }

  private grow(): void {
    const starts = new Float64Array(this.starts.length * 2);
    starts.set(this.starts);
    this.starts = starts;
    const lengths = new Uint32Array(this.lengths.length * 2);
    lengths.set(this.lengths);
    this.lengths = lengths;
  }
}
