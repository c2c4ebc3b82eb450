/**
 * A first-pass worker's request handler (worker threads, Web Workers, or
 * inline): `read` turns a unit into its documents' keys, scores and shingle
 * sets, answering with the keys and keeping the sets; `finish` signs the
 * selected ones on the CPU kernel or returns their shingles, and forgets the unit.
 *
 * JSON Lines go through the document kernel (wasm/unitKernel.ts) from their
 * bytes; JavaScript reads only the lines it hands back, and the readers that
 * stay in JavaScript (Parquet, text files, JSON arrays, texts) give it one text
 * at a time. Settings the kernel does not have (NFKC, punctuation stripping,
 * `--shingle auto`, `--keep field:`) take the TypeScript path
 * for every document (documentBuilder.ts).
 */
import { openCpuKernel } from '../signatures/cpuKernel.js';
import { sharedMemoryAvailable } from '../bands/sharedMemory.js';
import { DocumentBuilder, kernelSetupOf, type HeldSets } from './documentBuilder.js';
import type { FirstPassRequest, InputUnit, ReadSetup, SelectedDocuments, UnitDocuments } from './protocol.js';
import type { FirstPassHandler, FirstPassSources } from './ports.js';
import { parseJsonFallbackLine, parseUnit } from './readUnit.js';
import { loadRange, rangeLines, type LoadedRange, type RangeUnit } from './rangeUnits.js';
import { kernelLines, LineStatus, R } from './wasm/unitKernel.js';

interface HeldUnit {
  readonly sets: HeldSets;
  /** Milliseconds the unit's documents took to read into keys and shingles. */
  readonly readMs: number;
}

/** `useKernel: false` reads every document by the TypeScript path (the reference the kernel is tested against). */
export function firstPassHandler(
  sources: FirstPassSources,
  options: { readonly useKernel?: boolean } = {},
): FirstPassHandler {
  const held = new Map<number, HeldUnit>();
  const loaded = new Map<number, LoadedRange>();
  const useKernel = options.useKernel ?? true;
  return async (request: FirstPassRequest) => {
    switch (request.type) {
      case 'load': {
        if (sources.readAt === undefined) throw new Error('first pass: this worker cannot read files by range');
        const range = await loadRange(request.range, sources.readAt);
        loaded.set(request.unit, range);
        return { response: { lines: range.lines }, transfer: [] };
      }
      case 'read': {
        const started = performance.now();
        const input = request.input.kind === 'range' ? loadedLines(loaded, request.unit, request.input) : request.input;
        const { documents, sets } = await readUnit(input, request.setup, sources, useKernel);
        held.set(request.unit, { sets, readMs: performance.now() - started });
        return { response: { documents }, transfer: transfersOf(documents) };
      }
      case 'finish': {
        const unit = held.get(request.unit);
        held.delete(request.unit);
        if (unit === undefined) throw new Error(`first pass: unit ${request.unit} was never read here`);
        const selected = finish(unit, request.select, request.mode);
        const transfer = [selected.signatures, selected.shingles, selected.offsets]
          .filter((a) => a !== undefined)
          .filter((a) => !isSharedBuffer(a.buffer))
          .map((a) => a.buffer as ArrayBuffer);
        return { response: { selected }, transfer };
      }
      case 'drop':
        held.delete(request.unit);
        loaded.delete(request.unit);
        return { response: { dropped: true }, transfer: [] };
    }
  };
}

/** A range this worker loaded, as the lines unit it reads (its bytes then go with it). */
function loadedLines(loaded: Map<number, LoadedRange>, unit: number, range: RangeUnit): InputUnit {
  const bytes = loaded.get(unit);
  loaded.delete(unit);
  if (bytes === undefined || range.firstLine === undefined)
    throw new Error(`first pass: range unit ${unit} was not loaded here, or came without its first line`);
  return rangeLines(range, bytes, range.firstLine);
}

async function readUnit(
  unit: InputUnit,
  setup: ReadSetup,
  sources: FirstPassSources,
  useKernel: boolean,
): Promise<{ documents: UnitDocuments; sets: HeldSets }> {
  const runKernel = useKernel ? kernelSetupOf(setup) : undefined;
  // Mid-file, a record without an id goes to JavaScript, which refuses it (readUnit.ts): no line number names it.
  const kernel = runKernel && unit.kind === 'lines' && unit.midFile ? { ...runKernel, idRequired: true } : runKernel;
  const builder = new DocumentBuilder(
    setup,
    kernel,
    unit.kind === 'lines' || unit.kind === 'json-array' ? unit.bytes.length : 0,
  );
  if (unit.kind === 'lines' && kernel !== undefined) {
    const prefix = unit.qualifyIds ? `${unit.path}:` : '';
    const ran = kernelLines(unit.bytes, unit.firstLine, unit.stripBom, kernel, prefix, (records, width) => {
      for (let r = 0; r < records.count && builder.error === undefined; r++) {
        const at = r * width;
        const status = records.words[at + R.STATUS];
        if (status === LineStatus.Document) builder.addKernelRecord(records, at, unit.offset);
        else if (status === LineStatus.ForJs) {
          const line = parseJsonFallbackLine(
            unit,
            records.words[at + R.LINE],
            records.words[at + R.START],
            records.words[at + R.END],
            setup.read,
          );
          if (line !== undefined) builder.addParsed(line, false); // the kernel is mid-unit
        }
      }
      builder.flushKernelSets(); // before the kernel's next call overwrites them
    });
    if (ran) return builder.done();
  }
  builder.addParsed(await parseUnit(unit, setup.read, sources));
  return builder.done();
}

function finish(
  unit: HeldUnit,
  select: Uint32Array,
  mode: Extract<FirstPassRequest, { type: 'finish' }>['mode'],
): SelectedDocuments {
  const batch = unit.sets.select(select);
  const shingleCount = batch.offsets[select.length];
  const timing = { shingleCount, shingleMs: unit.readMs, signMs: 0 };
  if (!mode.sign) return { ...timing, shingles: batch.shingles, offsets: batch.offsets };
  const started = performance.now();
  const signatures = openCpuKernel(mode.kernel).kernel.sign(mode.family, batch);
  timing.signMs = performance.now() - started;
  if (!mode.keepSets) return { ...timing, signatures };
  const shingles = mode.sharedSets && sharedMemoryAvailable() ? sharedCopy(batch.shingles) : batch.shingles;
  return { ...timing, signatures, shingles, offsets: batch.offsets };
}

/** A shared buffer is posted shared: never in a transfer list. */
function isSharedBuffer(buffer: ArrayBufferLike): boolean {
  return sharedMemoryAvailable() && buffer instanceof SharedArrayBuffer;
}

/** The words in a SharedArrayBuffer of their own, exactly as long: posted, they are shared, not copied. */
function sharedCopy(words: Uint32Array): Uint32Array {
  const out = new Uint32Array(new SharedArrayBuffer(words.byteLength));
  out.set(words);
  return out;
}

function transfersOf(documents: UnitDocuments): ArrayBuffer[] {
  return [
    documents.idBytes,
    documents.idEnds,
    documents.idKeys,
    documents.exactKeys,
    documents.empty,
    documents.scores,
    documents.lines,
    documents.starts,
    documents.ends,
  ].map((a) => a.buffer as ArrayBuffer);
}
