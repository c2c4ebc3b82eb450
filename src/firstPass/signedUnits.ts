/**
 * The first pass with signatures: on the CPU the workers sign what they
 * shingled (nothing crosses twice); with a GPU they return shingles, which
 * are batched here (about a million shingles a dispatch) and signed by the
 * device, one batch in flight while the workers go on. Units come out in
 * input order either way, each with its selected documents' rows.
 */
import { EMPTY_SLOT_WORD, type SignerBackend } from '../signatures/backend.js';
import type { CpuKernelName } from '../signatures/cpuKernel.js';
import type { HashFamily } from '../signatures/hashFamily.js';
import { firstPass, type FirstPassOptions, type OrderedUnit } from './firstPass.js';
import type { FirstPassWorkers } from './ports.js';
import type { InputUnit } from './protocol.js';
import { freeNow } from '../typedArrays.js';

/** Who signs a run: the workers' CPU kernel, or `backend` here. */
export interface FirstPassSigner {
  readonly backend: SignerBackend;
  readonly workers: FirstPassWorkers;
  /**
   * When `backend` is the CPU: the workers sign with this kernel and family. Absent: they shingle and `backend` signs.
   */
  readonly cpu?: { readonly kernel: CpuKernelName; readonly family: HashFamily };
}

export interface SignedUnit extends OrderedUnit {
  /** selected·k·2 words, 64-bit slots as (lo, hi). */
  readonly signatures: Uint32Array;
  /**
   * Whether its documents' tables, signatures and sets lie in buffers of its own (a worker's answers, signed there),
   * which whoever takes the unit last may free at once (freeAnswer); not rows cut from a device's batch.
   */
  readonly ownsBuffers?: boolean;
}

/** Where a signing pass's time went (the library also calls it PipelineTimings). */
export interface SignedPassTimings {
  /** Milliseconds shingling, in the workers (summed over them). */
  shingleMs: number;
  /** Milliseconds signing: in the workers (summed) on the CPU; with a GPU, waiting here for what did not overlap. */
  signMs: number;
}

/** Shingles per GPU dispatch: enough to amortize a submission, few enough to keep the workers overlapped. */
const DEVICE_BATCH_SHINGLES = 1 << 20;

export async function* signedUnits(
  units: AsyncIterable<InputUnit> | Iterable<InputUnit>,
  signer: FirstPassSigner,
  options: Omit<FirstPassOptions, 'workers' | 'finish'> & { readonly keepSets: boolean },
  timings: SignedPassTimings = { shingleMs: 0, signMs: 0 },
): AsyncGenerator<SignedUnit> {
  const finish =
    signer.cpu !== undefined && signer.backend.kind === 'cpu'
      ? {
          sign: true as const,
          family: signingFamily(signer.cpu.family),
          kernel: signer.cpu.kernel,
          keepSets: options.keepSets,
        }
      : { sign: false as const };
  const ordered = firstPass(units, { ...options, workers: signer.workers, finish });
  if (finish.sign) {
    for await (const unit of ordered) {
      timings.shingleMs += unit.result.shingleMs;
      timings.signMs += unit.result.signMs;
      yield { ...unit, signatures: unit.result.signatures!, ownsBuffers: true };
    }
    return;
  }
  yield* signOnDevice(ordered, signer.backend, timings);
}

/** All but the seed, which signing does not read. */
function signingFamily(family: HashFamily): Omit<HashFamily, 'seed'> {
  const { seed: _seed, ...rest } = family;
  return rest;
}

/** Batches the units' shingles for the device, one batch in flight, and yields the units in order. */
async function* signOnDevice(
  units: AsyncIterable<OrderedUnit>,
  backend: SignerBackend,
  timings: SignedPassTimings,
): AsyncGenerator<SignedUnit> {
  let batch: OrderedUnit[] = [];
  let shingles = 0;
  let inFlight: Promise<SignedUnit[]> | undefined;
  const submit = (units: OrderedUnit[]): Promise<SignedUnit[]> => {
    const signing = backend.sign(joinShingles(units)).then((words) => splitRows(units, words, backend.k));
    signing.catch(() => undefined); // awaited below
    return signing;
  };
  const drain = async (): Promise<SignedUnit[]> => {
    if (inFlight === undefined) return [];
    const started = performance.now();
    const done = await inFlight;
    timings.signMs += performance.now() - started;
    inFlight = undefined;
    return done;
  };
  for await (const unit of units) {
    timings.shingleMs += unit.result.shingleMs;
    batch.push(unit);
    shingles += unit.result.shingleCount;
    if (shingles < DEVICE_BATCH_SHINGLES) continue;
    const signed = await drain();
    inFlight = submit(batch);
    batch = [];
    shingles = 0;
    yield* signed;
  }
  yield* await drain();
  if (batch.length > 0) {
    inFlight = submit(batch);
    yield* await drain();
  }
}

/** The units' selected documents as one ShingleBatch, in order. */
function joinShingles(units: readonly OrderedUnit[]): { shingles: Uint32Array; offsets: Uint32Array } {
  const documents = units.reduce((n, u) => n + u.selected.length, 0);
  const total = units.reduce((n, u) => n + u.result.shingleCount, 0);
  const shingles = new Uint32Array(2 * total);
  const offsets = new Uint32Array(documents + 1);
  let d = 0;
  let base = 0;
  for (const unit of units) {
    shingles.set(unit.result.shingles!, 2 * base);
    const own = unit.result.offsets!;
    for (let i = 1; i < own.length; i++) offsets[++d] = base + own[i];
    base += unit.result.shingleCount;
  }
  return { shingles, offsets };
}

function splitRows(units: readonly OrderedUnit[], words: Uint32Array, k: number): SignedUnit[] {
  let row = 0;
  return units.map((unit) => {
    const signatures = words.subarray(row * 2 * k, (row + unit.selected.length) * 2 * k);
    row += unit.selected.length;
    return { ...unit, signatures };
  });
}

/**
 * Frees (freeNow) a unit's own buffers that nobody reads once it has been taken: its documents' tables and its sets'
 * offsets (its signatures and sets go to the stores that take them). Nothing where the unit does not own them.
 */
export function freeAnswer(unit: SignedUnit, ...more: ArrayBufferLike[]): void {
  if (unit.ownsBuffers !== true) return;
  const { documents: d, result } = unit;
  const tables = [d.idBytes, d.idEnds, d.idKeys, d.exactKeys, d.empty, d.scores, d.lines, d.starts, d.ends];
  freeNow(...tables.map((t) => t.buffer), ...(result.offsets === undefined ? [] : [result.offsets.buffer]), ...more);
}

/** A unit's selected document i's shingle set, as (lo, hi) pairs; undefined when sets were not kept. */
export function selectedSet(unit: OrderedUnit, i: number): Uint32Array | undefined {
  const { shingles, offsets } = unit.result;
  if (shingles === undefined || offsets === undefined) return undefined;
  return shingles.subarray(2 * offsets[i], 2 * offsets[i + 1]);
}

/**
 * Without a pre-pass every non-empty document is selected: this gives every
 * document of the unit its row, an empty one all-ones (as signing an empty set gives).
 */
export function rowsOfEveryDocument(unit: SignedUnit, k: number): Uint32Array {
  const { count, empty } = unit.documents;
  if (unit.selected.length === count) return unit.signatures;
  const rows = new Uint32Array(count * 2 * k).fill(EMPTY_SLOT_WORD);
  let s = 0;
  for (let d = 0; d < count; d++) {
    if (empty[d] === 1) continue;
    rows.set(unit.signatures.subarray(s * 2 * k, (s + 1) * 2 * k), d * 2 * k);
    s++;
  }
  return rows;
}
