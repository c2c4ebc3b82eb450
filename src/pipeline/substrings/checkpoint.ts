/**
 * `substrings --resume`: the search's rounds are independent slices of the key
 * space and its marks only ever gain verified bits, so an interrupted search
 * is described by the rounds it finished and a snapshot of its marks. Both are
 * written to `OUT.partial` beside the first output (atomically, at most every
 * `checkpointSeconds`), kept when the run fails or is interrupted, and removed
 * once the outputs are written. A resumed run must see the same corpus (its
 * text, document boundaries and ids, by SHA-1) and the same --min-length and
 * --cut; it reuses the checkpoint's slices, so its rounds are the interrupted
 * run's whatever --memory-limit and --threads it is given.
 *
 * File: `GDSUBCK1`, the header's length (u32 LE), the header (JSON), then the
 * marks (a bit per corpus byte, little-endian 32-bit words).
 */
import { createHash } from 'node:crypto';
import { open, unlink } from 'node:fs/promises';
import type { CutMode } from '../../options.js';
import { AtomicFile, partialPath } from '../../formats/files/atomicFile.js';
import type { CorpusText } from '../../substrings/corpusText.js';
import { newMarks, orMarks, type SearchPlan } from '../../substrings/searchRepeats.js';
import type { RoundStats } from '../../substrings/repeatGroups.js';

const MAGIC = 'GDSUBCK1';
const FORMAT = 'gpudedup-substrings-checkpoint-1' as const;

interface CheckpointHeader {
  readonly format: typeof FORMAT;
  readonly minLength: number;
  readonly cut: CutMode;
  readonly documents: number;
  readonly textBytes: number;
  /** SHA-1 of the text, the document starts and the ids. */
  readonly corpusDigest: string;
  /** SHA-1 of the marks that follow. */
  readonly marksDigest: string;
  readonly slices: ReadonlyArray<readonly [number, number]>;
  readonly done: readonly number[];
  /** The done rounds' counts (absent in a checkpoint of an earlier version: the resumed rounds count none). */
  readonly stats?: RoundStats;
}

export interface SearchIdentity {
  readonly minLength: number;
  readonly cut: CutMode;
}

export interface SearchCheckpoint {
  readonly path: string;
  /** The plan of this run: the interrupted run's rounds and marks when resuming, and the checkpoint writer. */
  readonly plan: Omit<SearchPlan, 'onRound'>;
  /** Rounds the interrupted run had finished (0 for a fresh run). */
  readonly resumedRounds: number;
  /** Rounds finished so far, as the last checkpoint written says (for the interrupt note). */
  readonly savedRounds: () => number;
  /** The run is complete: the checkpoint is no longer needed. */
  remove(): Promise<void>;
}

/** The checkpoint's name for a run whose first output file is `output`. */
export function checkpointPath(output: string): string {
  return partialPath(output);
}

/**
 * Opens the checkpoint of this run: continues the interrupted run's (`resume`), or starts afresh over it with a
 * note; then writes a new one after rounds, at most every `checkpointSeconds`.
 */
export async function openCheckpoint(
  path: string,
  corpus: CorpusText,
  ids: readonly string[],
  identity: SearchIdentity,
  freshSlices: ReadonlyArray<readonly [number, number]>,
  resume: boolean,
  checkpointSeconds: number,
  note: (message: string) => void,
): Promise<SearchCheckpoint> {
  let digest: string | undefined;
  const corpusDigest = (): string => (digest ??= digestCorpus(corpus, ids));
  const existing = await readHeader(path);
  let resumed: { header: CheckpointHeader; marks: Int32Array } | undefined;
  if (existing !== undefined && !resume)
    note(`warning: starting afresh over the checkpoint of an interrupted run (${path}); --resume continues it`);
  if (existing === undefined && resume) note(`no checkpoint at ${path}: searching from the start`);
  if (existing !== undefined && resume) {
    const refused = mismatch(existing.header, corpus, ids.length, identity, corpusDigest);
    if (refused !== undefined)
      throw new RangeError(`${path}: cannot resume: ${refused}; run without --resume to start over`);
    resumed = { header: existing.header, marks: await readMarks(path, existing, corpus) };
  }
  const slices = resumed?.header.slices ?? freshSlices;
  const header = { format: FORMAT, ...identity, documents: ids.length, textBytes: corpus.bytes.length, slices };
  const writer = new CheckpointWriter(path, corpus, header, corpusDigest, checkpointSeconds, resumed?.marks);
  writer.savedRounds = resumed?.header.done.length ?? 0;
  return {
    path,
    plan: {
      slices,
      done: resumed === undefined ? undefined : new Set(resumed.header.done),
      resumedMarks: resumed?.marks,
      resumedStats: resumed?.header.stats,
      afterRound: (finished, marks, stats) => writer.afterRound(finished, marks, stats),
    },
    resumedRounds: resumed?.header.done.length ?? 0,
    savedRounds: () => writer.savedRounds,
    remove: async () => {
      await writer.idle();
      await unlink(path).catch(() => undefined);
    },
  };
}

type FixedHeader = Omit<CheckpointHeader, 'corpusDigest' | 'marksDigest' | 'done' | 'stats'>;

/** Writes a snapshot after a round when the last is old enough; one write at a time (a lane finishing meanwhile skips). */
class CheckpointWriter {
  savedRounds = 0;
  private writing: Promise<void> | undefined;
  private lastWrite = performance.now();
  private snapshot: Int32Array | undefined;

  constructor(
    private readonly path: string,
    private readonly corpus: CorpusText,
    private readonly header: FixedHeader,
    private readonly corpusDigest: () => string,
    private readonly checkpointSeconds: number,
    private readonly resumedMarks: Int32Array | undefined,
  ) {}

  async afterRound(finished: ReadonlySet<number>, marks: readonly Int32Array[], stats: RoundStats): Promise<void> {
    // Every slice done: the search ends now. Too soon after the last: skip. Writing: the other lane's, skip.
    if (finished.size === this.header.slices.length || this.writing !== undefined) return;
    if (performance.now() - this.lastWrite < this.checkpointSeconds * 1000) return;
    this.writing = this.write(
      [...finished].sort((a, b) => a - b),
      marks,
      stats,
    );
    try {
      await this.writing;
    } finally {
      this.writing = undefined;
      this.lastWrite = performance.now();
    }
  }

  async idle(): Promise<void> {
    await this.writing?.catch(() => undefined);
  }

  private async write(done: number[], marks: readonly Int32Array[], stats: RoundStats): Promise<void> {
    const snapshot = (this.snapshot ??= newMarks(this.corpus, false));
    snapshot.fill(0);
    orMarks(this.resumedMarks === undefined ? marks : [...marks, this.resumedMarks], snapshot);
    const bytes = new Uint8Array(snapshot.buffer, snapshot.byteOffset, snapshot.byteLength);
    const header: CheckpointHeader = {
      ...this.header,
      corpusDigest: this.corpusDigest(),
      marksDigest: createHash('sha1').update(bytes).digest('hex'),
      done,
      stats,
    };
    const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32LE(headerBytes.length);
    const file = await AtomicFile.create(this.path);
    try {
      await file.write(Buffer.concat([Buffer.from(MAGIC, 'latin1'), length, headerBytes]));
      await file.write(bytes);
      await file.commit();
    } catch (error) {
      await file.abort();
      throw error;
    }
    this.savedRounds = done.length;
  }
}

/** The text, the document boundaries and the ids: what the marks' positions mean. */
function digestCorpus(corpus: CorpusText, ids: readonly string[]): string {
  const hash = createHash('sha1');
  hash.update(new Uint8Array(corpus.bytes.buffer, corpus.bytes.byteOffset, corpus.bytes.byteLength));
  hash.update(new Uint8Array(corpus.starts.buffer, corpus.starts.byteOffset, corpus.starts.byteLength));
  for (const id of ids) hash.update(`${JSON.stringify(id)}\n`);
  return hash.digest('hex');
}

/** Why the checkpoint cannot continue this run, or undefined. */
function mismatch(
  header: CheckpointHeader,
  corpus: CorpusText,
  documents: number,
  identity: SearchIdentity,
  corpusDigest: () => string,
): string | undefined {
  if (header.minLength !== identity.minLength)
    return `it was made with --min-length ${header.minLength}, this run has ${identity.minLength}`;
  if (header.cut !== identity.cut) return `it was made with --cut ${header.cut}, this run has --cut ${identity.cut}`;
  if (header.documents !== documents || header.textBytes !== corpus.bytes.length)
    return (
      `it was made from ${header.documents} documents and ${header.textBytes} bytes of text, ` +
      `the input now has ${documents} and ${corpus.bytes.length}`
    );
  if (header.corpusDigest !== corpusDigest()) return 'the input changed since (its text or ids differ)';
  return undefined;
}

interface ExistingCheckpoint {
  readonly header: CheckpointHeader;
  /** Where the marks begin in the file. */
  readonly marksAt: number;
}

/** The checkpoint's header, or undefined when there is no file; a file that is not one is refused naming it. */
async function readHeader(path: string): Promise<ExistingCheckpoint | undefined> {
  const file = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new RangeError(`${path}: cannot read the checkpoint: ${error.message}`);
  });
  if (file === undefined) return undefined;
  try {
    const prefix = Buffer.alloc(12);
    const { bytesRead } = await file.read(prefix, 0, 12, 0);
    if (bytesRead < 12 || prefix.toString('latin1', 0, 8) !== MAGIC) throw notCheckpoint(path, 'no checkpoint header');
    const length = prefix.readUInt32LE(8);
    const text = Buffer.alloc(length);
    if ((await file.read(text, 0, length, 12)).bytesRead < length) throw notCheckpoint(path, 'its header is cut short');
    let header: CheckpointHeader;
    try {
      header = JSON.parse(text.toString('utf8')) as CheckpointHeader;
    } catch {
      throw notCheckpoint(path, 'its header is not JSON');
    }
    if (header.format !== FORMAT) throw notCheckpoint(path, `format ${JSON.stringify(header.format)}`);
    if (!wellFormedRounds(header)) throw notCheckpoint(path, 'its rounds do not cover the key space once');
    return { header, marksAt: 12 + length };
  } finally {
    await file.close();
  }
}

/** The checkpoint's marks, checked against their digest. */
async function readMarks(path: string, existing: ExistingCheckpoint, corpus: CorpusText): Promise<Int32Array> {
  const marks = newMarks(corpus, false);
  const bytes = new Uint8Array(marks.buffer);
  const file = await open(path, 'r');
  try {
    const { bytesRead } = await file.read(bytes, 0, bytes.length, existing.marksAt);
    const { size } = await file.stat();
    if (bytesRead !== bytes.length || size !== existing.marksAt + bytes.length)
      throw notCheckpoint(path, `its marks are ${size - existing.marksAt} bytes, the corpus needs ${bytes.length}`);
  } finally {
    await file.close();
  }
  if (createHash('sha1').update(bytes).digest('hex') !== existing.header.marksDigest)
    throw notCheckpoint(path, 'its marks do not match their recorded SHA-1 (the file is damaged)');
  return marks;
}

/** The slices tile [0, 2^32) in order and every done index names one, once. */
function wellFormedRounds({ slices, done }: CheckpointHeader): boolean {
  if (!Array.isArray(slices) || !Array.isArray(done) || slices.length === 0) return false;
  let at = 0;
  for (const slice of slices) {
    if (!Array.isArray(slice) || slice[0] !== at || !(slice[1] > at)) return false;
    at = slice[1];
  }
  return (
    at === 2 ** 32 &&
    new Set(done).size === done.length &&
    done.every((i) => Number.isInteger(i) && i >= 0 && i < slices.length)
  );
}

function notCheckpoint(path: string, why: string): RangeError {
  return new RangeError(`${path}: not a substrings checkpoint this version can resume (${why}); delete it or rerun`);
}
