/**
 * The dedup worker (a module worker bundled by Vite): reading and parsing,
 * the exact pre-pass, shingling and signing (on WebGPU, navigator.gpu being
 * there in dedicated workers, or on the CPU), banding to assignment through the
 * library's dedupDocumentStream, then the writing pass that makes the
 * downloads. It keeps what the inspector asks about afterwards. Cancel is the
 * page terminating this worker.
 */
import { dedupUnits, type DedupDocumentsResult } from '../src/dedup/dedupDocuments.js';
import type { FirstPassWorkers } from '../src/firstPass/ports.js';
import type { FirstPassSigner } from '../src/firstPass/signedUnits.js';
import { CPU_KERNEL_LABELS, openCpuKernel } from '../src/signatures/cpuKernel.js';
import type { HashFamily } from '../src/signatures/hashFamily.js';
import { WasmSigner } from '../src/signatures/wasmSigner.js';
import { InputError } from '../src/io/documents.js';
import { FallbackSigner } from '../src/signatures/fallbackSigner.js';
import { hashFamilyOf, makeParams, shingleOptionsOf, type SignatureParams } from '../src/signatures/params.js';
import type { SignerBackend } from '../src/signatures/backend.js';
import { acquireBrowserDevice, resolveBrowserBackend } from '../src/signatures/webgpu/browser.js';
import { describeAdapter } from '../src/signatures/webgpu/adapter.js';
import { isSoftwareAdapter } from '../src/signatures/autoChoice.js';
import { errorMessage } from '../src/errors.js';
import { similarityHistogramSvg, verifiedPairsHistogram } from '../src/plots/histogram.js';
import { sCurveSvg } from '../src/plots/sCurve.js';
import { Inspector } from './inspector.js';
import type { BackendChoice, FromWorker, ParquetTable, RunSettings, StageProgress, ToWorker } from './protocol.js';
import { parquetDownload, writeDownloads, type RunRecord } from './workerOutputs.js';
import { webFirstPassWorkers, webInputUnits } from './webSources.js';

const post = (message: FromWorker, transfer: Transferable[] = []): void =>
  (self as unknown as Worker).postMessage(message, transfer);

let inspector: Inspector | undefined;
/** The last run, for the Parquet downloads made when asked for. */
let lastRun: RunRecord | undefined;
/** Shingling and CPU signing on every core; started with the first run, kept for the next. */
let pool: FirstPassWorkers | undefined;
const firstPassWorkers = (): FirstPassWorkers =>
  (pool ??= webFirstPassWorkers(Math.max(1, Math.min(navigator.hardwareConcurrency || 1, 16))));

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  const reply = (id: number, work: () => FromWorker): void => {
    try {
      post(work());
    } catch (error) {
      post({ type: 'reply-error', id, message: errorMessage(error) });
    }
  };
  switch (message.type) {
    case 'probe':
      void probe();
      break;
    case 'run':
      inspector = undefined;
      lastRun = undefined;
      run(message.files, message.reference, message.settings).catch((error: unknown) => {
        console.error(error);
        post({ type: 'error', message: errorMessage(error) });
      });
      break;
    case 'page':
      reply(message.id, () => ({
        type: 'page',
        id: message.id,
        ...requireInspector().page(message.list, message.offset, message.count),
      }));
      break;
    case 'cluster':
      reply(message.id, () => ({
        type: 'cluster',
        id: message.id,
        members: requireInspector().members(message.cluster),
      }));
      break;
    case 'compare':
      reply(message.id, () => ({
        type: 'compare',
        id: message.id,
        comparison: requireInspector().compare(message.kept, message.removed),
      }));
      break;
    case 'parquet':
      void makeParquet(message.id, message.table);
      break;
  }
};

async function makeParquet(id: number, table: ParquetTable): Promise<void> {
  try {
    if (lastRun === undefined) throw new Error('no results to download: run a dedup first');
    post({ type: 'parquet', id, blob: await parquetDownload(lastRun, table) });
  } catch (error) {
    post({ type: 'reply-error', id, message: errorMessage(error) });
  }
}

function requireInspector(): Inspector {
  if (inspector === undefined) throw new Error('no results to inspect: run a dedup first');
  return inspector;
}

/** Whether WebGPU would sign here: an adapter from this worker's navigator.gpu, released at once. */
async function probe(): Promise<void> {
  try {
    const acquired = await acquireBrowserDevice();
    const detail = describeAdapter(acquired.adapter);
    acquired.release();
    post({ type: 'probe', probe: { webgpu: true, detail, software: isSoftwareAdapter(acquired.adapter) } });
  } catch (error) {
    post({ type: 'probe', probe: { webgpu: false, detail: errorMessage(error) } });
  }
}

/** Posts a stage's progress at most every 100 ms, and always when it completes. */
function progressReporter(): (progress: StageProgress) => void {
  let last = 0;
  let lastStage = '';
  return (progress) => {
    const now = performance.now();
    if (progress.stage === lastStage && progress.done < progress.total && now - last < 100) return;
    last = now;
    lastStage = progress.stage;
    post({ type: 'progress', progress });
  };
}

async function run(files: File[], reference: File[], settings: RunSettings): Promise<void> {
  const report = progressReporter();
  const params = makeParams({
    scheme: settings.scheme,
    k: settings.k,
    seed: settings.seed,
    shingle: settings.shingle,
    n: settings.n,
    nfkc: settings.nfkc,
    stripPunctuation: settings.stripPunctuation,
  });
  const started = performance.now();
  report({ stage: 'backend setup', done: 0, total: 1, unit: 'steps' });
  const { backend, note } = await chooseBackend(settings.backend, params);
  const setupMs = performance.now() - started;
  try {
    const corpusBytes = files.reduce((sum, f) => sum + f.size, 0);
    const referenceBytes = reference.reduce((sum, f) => sum + f.size, 0);
    const skippedFiles: string[] = [];
    const invalid: string[] = [];
    let invalidSkipped = 0;
    const read = {
      textField: settings.textField,
      idField: settings.idField,
      skipInvalid: settings.skipInvalid,
      strict: false,
    };
    const bytes = (stage: string, total: number) => (done: number) => report({ stage, done, total, unit: 'bytes' });
    // The first pass runs in the pool's workers, from the files' bytes (src/firstPass); this worker orders it.
    const result = await dedupUnits(
      webInputUnits(files, bytes('signing', corpusBytes), (message) => skippedFiles.push(message)),
      {
        signer: backend,
        read,
        threshold: settings.threshold,
        lsh: settings.lsh,
        shingle: shingleOptionsOf(params),
        slotBits: params.slotBits,
        verify: settings.verify,
        clusterCheck: settings.clusterCheck,
        keep: settings.keep,
        against: reference.length > 0 ? webInputUnits(reference, bytes('reference set', referenceBytes)) : undefined,
        onInvalid: (message) => {
          invalidSkipped++;
          if (invalid.length < 5) invalid.push(message);
        },
        onBinary: (path) => skippedFiles.push(`${path}: looks binary (NUL bytes or mostly invalid UTF-8), skipped`),
        onStage: (stage) => report({ stage, done: 0, total: 1, unit: 'steps' }),
        onProgress: (stage, done, total) =>
          report({ stage, done, total, unit: stage === 'verification' ? 'pairs' : 'bands' }),
      },
    );
    const ids = Array.from({ length: result.records.documents }, (_, d) => result.records.id(d));
    if (result.table.documents === 0) {
      const why = skippedFiles.length > 0 ? ` (${skippedFiles.join('; ')})` : '';
      throw new InputError(files.map((f) => f.name).join(', '), 0, `no documents to deduplicate${why}`);
    }
    const fellBack = backend.backend instanceof FallbackSigner && backend.backend.fallbackReason !== undefined;
    const backendNote = fellBack
      ? 'The GPU failed during the run; the remaining batches were signed on the CPU.'
      : note;
    const writingStarted = performance.now();
    const timings = [{ stage: 'backend setup', ms: setupMs }, ...result.timings];
    const record: RunRecord = {
      files,
      reference,
      settings,
      params,
      result,
      ids,
      backend: backend.backend.description,
      timings,
      invalidSkipped,
      writingStarted,
    };
    const outputs = await writeDownloads(record, bytes('writing', corpusBytes));
    timings.push({ stage: 'writing', ms: performance.now() - writingStarted });
    const referenceIds = result.contamination?.referenceIds ?? [];
    inspector = new Inspector(
      result,
      ids,
      outputs.texts,
      shingleOptionsOf(params),
      settings.verify === 'exact',
      referenceIds,
    );
    lastRun = record;
    post({
      type: 'result',
      summary: {
        counts: result.assignment.counts,
        params,
        settings,
        lsh: result.lsh,
        distinctTexts: result.signatures.count,
        shingles: result.shingles,
        candidates: result.verified.candidates,
        verified: result.verified.a.length,
        largestBucket: result.candidateStats.largestBucket,
        splitOff: result.clustering.splitOff,
        referenceDocuments: referenceIds.length,
        missingKeepField: result.missingKeepField,
        invalidSkipped,
        invalidExamples: invalid,
        skippedFiles,
        backend: backend.backend.description,
        backendKind: backend.backend.kind === 'webgpu' ? 'webgpu' : 'cpu',
        backendNote,
        timings,
        plots: {
          curve: sCurveSvg({ ...result.lsh, threshold: settings.threshold }),
          histogram: similarityHistogramSvg(verifiedPairsHistogram(result.verified, settings.threshold)),
        },
        inspector: inspector.sizes(outputs.textsDropped),
      },
      downloads: outputs.downloads,
    });
  } finally {
    backend.backend.destroy();
  }
}

/**
 * WebGPU when this worker has a hardware adapter (any adapter when 'webgpu'
 * is chosen), else the CPU backend (identical signatures) with a note saying
 * why: `auto` passes a software adapter over, as the CLI does. A GPU that fails mid-run hands
 * the remaining batches to the CPU (FallbackSigner).
 */
async function chooseBackend(
  choice: BackendChoice,
  params: SignatureParams,
): Promise<{ backend: FirstPassSigner; note?: string }> {
  const family = hashFamilyOf(params);
  if (choice === 'cpu') return { backend: cpuSigner(family), note: 'CPU backend chosen in the settings.' };
  const resolved = await resolveBrowserBackend(choice, family);
  if (resolved.backend.kind === 'cpu') {
    resolved.backend.destroy(); // the single-threaded CpuSigner: the workers sign the same, on every core
    if (resolved.passedOver !== undefined) {
      return {
        backend: cpuSigner(family),
        note:
          `WebGPU here is a software adapter (${describeAdapter(resolved.passedOver)}), slower than this tab's CPU workers, ` +
          'so documents were signed on the CPU: same signatures. Choose “WebGPU, even a software adapter” as the ' +
          'signing backend to use it anyway.',
      };
    }
    const reason =
      resolved.notes
        .find((n) => n.startsWith('webgpu:'))
        ?.slice('webgpu:'.length)
        .trim() ?? 'unknown reason';
    return {
      backend: cpuSigner(family),
      note: `WebGPU is not available here (${reason}), so documents were signed on the CPU: same signatures, slower.`,
    };
  }
  return { backend: { backend: new FallbackSigner(resolved.backend, family), workers: firstPassWorkers() } };
}

/**
 * The CPU backend: the first-pass workers sign with the fastest kernel that loads here (the backend itself names it,
 * and signs a GPU fallback's batches).
 */
function cpuSigner(family: HashFamily): FirstPassSigner {
  const inline = new WasmSigner(family);
  const workers = firstPassWorkers();
  const kernel = openCpuKernel().kernel;
  const description = `CPU (${CPU_KERNEL_LABELS[kernel.name]}, ${workers.size} worker${workers.size === 1 ? '' : 's'})`;
  const backend: SignerBackend = {
    kind: 'cpu',
    k: family.k,
    description,
    sign: (batch) => inline.sign(batch),
    destroy: () => inline.destroy(),
  };
  return { backend, workers, cpu: { kernel: kernel.name, family } };
}

export type { DedupDocumentsResult };
