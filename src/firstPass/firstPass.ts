/**
 * The first pass, ordered: units of input go out to the workers as fast as
 * they can take them, and their answers are taken back strictly in input
 * order. This thread does only what must see every document in order — the
 * exact pre-pass (first in input order wins, whatever the chunking), the
 * unique-id check — and hands each worker back the list of its documents to
 * shingle and sign. No document's text comes here.
 */
import {
  unitId,
  type FinishMode,
  type FirstPassResponse,
  type InputUnit,
  type ReadSetup,
  type SelectedDocuments,
  type UnitDocuments,
} from './protocol.js';
import type { FirstPassWorkers } from './ports.js';
import type { UniqueIds } from '../exact/uniqueIds.js';

/** The exact pre-pass as this thread drives it, in input order (src/exact/exactPrePass.ts is the one). */
export interface OrderingPrePass {
  /**
   * Records the next document from its key (words [at, at + 4) of `keys`) and keep score; `isNew`: the first of a
   * non-empty group.
   */
  addKeyed(keys: Uint32Array, at: number, empty: boolean, score: number): { group: number; isNew: boolean };
  /** Reads ahead where a unit's keys (4 words each) will go in its table, before they are added one by one. */
  touch?(keys: Uint32Array, count: number): number;
  missingKeepField: number;
}

export interface FirstPassOptions {
  readonly setup: ReadSetup;
  readonly workers: FirstPassWorkers;
  /** Signed in the workers (CPU), or shingles back for a signer here (GPU). */
  readonly finish: FinishMode;
  /**
   * Asked as each unit is finished: whether its sets should come in shared memory (FinishMode's `sharedSets`), as
   * the spool that takes them can hold them where they lie; absent: as `finish` says.
   */
  readonly sharedSets?: () => boolean;
  /**
   * With a pre-pass, only the first document of each new exact group is
   * finished (dedup); without, every non-empty document is (sign, reference sets).
   */
  readonly prePass?: OrderingPrePass;
  /** Refuses a repeated id, naming both places. */
  readonly ids?: UniqueIds;
  readonly onInvalid?: (message: string) => void;
  readonly onBinary?: (path: string) => void;
  /** Units read ahead per worker (default 3). */
  readonly readAhead?: number;
  /** Documents (by input position) not to finish: an interrupted run's, which `sign --resume` checks and skips. */
  readonly skip?: (position: number, id: string) => boolean;
}

export interface OrderedUnit {
  /** Where the unit came from (messages, writing). */
  readonly path: string;
  readonly documents: UnitDocuments;
  /** Per document: its exact group with a pre-pass, else 0; −1 when empty. */
  readonly groups: Int32Array;
  /** The documents finished, as indexes into the unit, in order. */
  readonly selected: Uint32Array;
  readonly result: SelectedDocuments;
}

interface Pending {
  readonly id: number;
  readonly worker: number;
  readonly path: string;
  readonly read: Promise<UnitDocuments>;
}

let nextUnitId = 1;

export async function* firstPass(
  units: AsyncIterable<InputUnit> | Iterable<InputUnit>,
  options: FirstPassOptions,
): AsyncGenerator<OrderedUnit> {
  const { workers } = options;
  const position = { next: 0 };
  const reading: Pending[] = [];
  const lines: LineChain = { next: Promise.resolve(1) };
  const finishing: Promise<OrderedUnit>[] = [];
  const limit = workers.size * (options.readAhead ?? 3);
  const input =
    Symbol.asyncIterator in units ? units[Symbol.asyncIterator]() : (units as Iterable<InputUnit>)[Symbol.iterator]();
  let nextInput: Promise<IteratorResult<InputUnit>> | undefined = Promise.resolve(input.next());
  let sent = 0;
  try {
    // Whatever is ready first: a finished unit to hand on, a read to order, or more input while there is room.
    // A slow input (a pipe that pauses) never holds back the units already read.
    while (nextInput !== undefined || reading.length > 0 || finishing.length > 0) {
      const ready: Promise<Step>[] = [];
      if (finishing.length > 0) ready.push(finishing[0].then(FINISHED, FINISHED));
      if (reading.length > 0) ready.push(reading[0].read.then(READ, READ));
      if (nextInput !== undefined && reading.length + finishing.length < limit)
        ready.push(nextInput.then((result) => ({ result })));
      const step = await Promise.race(ready);
      if (step === FINISHED_STEP) yield await finishing.shift()!;
      else if (step === READ_STEP) finishing.push((await order(reading.shift()!, options, position)).finished);
      else if ('result' in step) {
        if (step.result.done) nextInput = undefined;
        else {
          reading.push(startRead(step.result.value, sent++ % workers.size, options, lines));
          nextInput = Promise.resolve(input.next());
        }
      }
    }
  } finally {
    // Stopped early (an error, or the consumer quit): stop reading, let nothing reject unobserved, free the workers'
    // texts.
    if (nextInput !== undefined) void Promise.resolve(input.return?.()).catch(() => undefined);
    for (const pending of reading) {
      pending.read.catch(() => undefined);
      void workers.request(pending.worker, { type: 'drop', unit: pending.id }).catch(() => undefined);
    }
    for (const done of finishing) done.catch(() => undefined);
  }
}

type Step = typeof FINISHED_STEP | typeof READ_STEP | { readonly result: IteratorResult<InputUnit> };
const FINISHED_STEP = Symbol('finished');
const READ_STEP = Symbol('read');
const FINISHED = (): typeof FINISHED_STEP => FINISHED_STEP;
const READ = (): typeof READ_STEP => READ_STEP;

/** Where the next range unit's first line is: known once the ranges before it in its file are loaded and counted. */
interface LineChain {
  next: Promise<number>;
}

function startRead(input: InputUnit, worker: number, options: FirstPassOptions, lines: LineChain): Pending {
  const id = nextUnitId++;
  const transfer = input.kind === 'lines' || input.kind === 'json-array' ? [input.bytes.buffer as ArrayBuffer] : [];
  const asked =
    input.kind === 'range'
      ? readRange(input, id, worker, options, lines)
      : options.workers.request(worker, { type: 'read', unit: id, input, setup: options.setup }, transfer);
  const read = asked.then((r) => {
    if (!('documents' in r)) throw new Error('first pass: a worker answered a read with something else');
    return r.documents;
  });
  read.catch(() => undefined); // awaited in order; an early failure is not unhandled meanwhile
  return { id, worker, path: input.kind === 'texts' ? 'documents' : input.path, read };
}

/**
 * A range: loaded by its worker (which counts its lines) as soon as it is handed out, read once the ranges before it
 * are counted. Only counts and keys come back here, never the bytes.
 */
function readRange(
  range: Extract<InputUnit, { kind: 'range' }>,
  id: number,
  worker: number,
  options: FirstPassOptions,
  lines: LineChain,
): Promise<FirstPassResponse> {
  const { workers } = options;
  const loaded = workers.request(worker, { type: 'load', unit: id, range }).then((r) => {
    if (!('lines' in r)) throw new Error('first pass: a worker answered a load with something else');
    return r.lines;
  });
  const firstLine = range.start === 0 ? Promise.resolve(1) : lines.next;
  const counted = Promise.all([firstLine, loaded]);
  lines.next = counted.then(([first, count]) => first + count);
  lines.next.catch(() => undefined); // a failed load fails its own read, in order
  return counted.then(([first]) =>
    workers.request(worker, { type: 'read', unit: id, input: { ...range, firstLine: first }, setup: options.setup }),
  );
}

function finishMode(options: FirstPassOptions): FinishMode {
  const { finish, sharedSets } = options;
  return finish.sign && finish.keepSets && sharedSets !== undefined ? { ...finish, sharedSets: sharedSets() } : finish;
}

/** The unit's turn: its documents through the pre-pass and the id check, then its selection sent back to finish. */
async function order(
  pending: Pending,
  options: FirstPassOptions,
  position: { next: number },
): Promise<{ finished: Promise<OrderedUnit> }> {
  const documents = await pending.read;
  const groups = new Int32Array(documents.count);
  const selected: number[] = [];
  // The tables' misses, overlapped here, are most of this loop's time.
  options.ids?.touch(documents.idKeys, documents.count);
  options.prePass?.touch?.(documents.exactKeys, documents.count);
  for (let i = 0; i < documents.count; i++) {
    options.ids?.add(() => unitId(documents, i), pending.path, documents.lines[i], documents.idKeys, 4 * i);
    const empty = documents.empty[i] === 1;
    const skipped = options.skip?.(position.next++, unitId(documents, i)) ?? false;
    if (options.prePass === undefined) {
      groups[i] = empty ? -1 : 0;
      if (!empty && !skipped) selected.push(i);
      continue;
    }
    const { group, isNew } = options.prePass.addKeyed(documents.exactKeys, 4 * i, empty, documents.scores[i]);
    groups[i] = group;
    if (isNew) selected.push(i);
  }
  if (options.prePass !== undefined) options.prePass.missingKeepField += documents.missingKeep;
  for (const message of documents.invalid) options.onInvalid?.(message);
  if (documents.binary) options.onBinary?.(pending.path);
  if (documents.error !== undefined) {
    void options.workers.request(pending.worker, { type: 'drop', unit: pending.id }).catch(() => undefined);
    throw new Error(documents.error);
  }
  const select = Uint32Array.from(selected);
  const finished = options.workers
    .request(pending.worker, { type: 'finish', unit: pending.id, select, mode: finishMode(options) })
    .then((r) => {
      if (!('selected' in r)) throw new Error('first pass: a worker answered a finish with something else');
      return { path: pending.path, documents, groups, selected: select, result: r.selected };
    });
  finished.catch(() => undefined);
  return { finished };
}
