/**
 * The dedup worker (a module worker bundled by Vite): reading and parsing,
 * the exact pre-pass, shingling and signing (on WebGPU, navigator.gpu being
 * there in dedicated workers, or on the CPU), banding to assignment through the
 * library's dedupDocumentStream, then the writing pass that makes the
 * downloads. It keeps what the inspector asks about afterwards. It also runs
 * the repeated-span search (substringsRun.ts). Cancel is the page terminating
 * this worker.
 */
import { dedupUnits, type DedupDocumentsResult } from '../src/dedup/dedupDocuments.js';
import type { FirstPassSigner } from '../src/firstPass/signedUnits.js';
import { InputError } from '../src/io/documents.js';
import { FallbackSigner } from '../src/signatures/fallbackSigner.js';
import { makeParams, shingleOptionsOf, type SignatureParams } from '../src/signatures/params.js';
import { acquireBrowserDevice } from '../src/signatures/webgpu/browser.js';
import { describeAdapter } from '../src/signatures/webgpu/adapter.js';
import { isSoftwareAdapter } from '../src/signatures/autoChoice.js';
import { errorMessage } from '../src/errors.js';
import { similarityHistogramSvg, verifiedPairsHistogram } from '../src/plots/histogram.js';
import { sCurveSvg } from '../src/plots/sCurve.js';
import { Inspector } from './inspector.js';
import type { FromWorker, ParquetTable, RunSettings, RunSummary, StageProgress, ToWorker } from './protocol.js';
import { parquetDownload, writeDownloads, type RunRecord } from './workerOutputs.js';
import { chooseBackend, stageWorkers } from './workerBackend.js';
import { webInputUnits } from './webSources.js';
import { runSubstringsInTab } from './substringsRun.js';
import { tabIdfTable, tabReadOptions } from './tabIdf.js';

const post = (message: FromWorker, transfer: Transferable[] = []): void =>
  (self as unknown as Worker).postMessage(message, transfer);

let inspector: Inspector | undefined;
/** The last run, for the Parquet downloads made when asked for. */
let lastRun: RunRecord | undefined;

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
    case 'substrings': // the last dedup's inspector and Parquet downloads stay: the page still shows its results
      runSubstringsInTab(message.files, message.settings, progressReporter()).then(
        ({ summary, downloads }) => post({ type: 'substrings-result', summary, downloads }),
        (error: unknown) => {
          console.error(error);
          post({ type: 'error', message: errorMessage(error) });
        },
      );
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
  const corpusBytes = files.reduce((sum, f) => sum + f.size, 0);
  const bytes = (stage: string, total: number) => (done: number) => report({ stage, done, total, unit: 'bytes' });
  const params = await runParams(files, settings, bytes('document frequencies', corpusBytes));
  const started = performance.now();
  report({ stage: 'backend setup', done: 0, total: 1, unit: 'steps' });
  const { backend, note } = await chooseBackend(settings.backend, params);
  const setupMs = performance.now() - started;
  try {
    const deduped = await dedupFiles(files, reference, settings, params, backend, report);
    const { result } = deduped;
    const ids = Array.from({ length: result.records.documents }, (_, d) => result.records.id(d));
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
      invalidSkipped: deduped.invalidSkipped,
      writingStarted,
    };
    const outputs = await writeDownloads(record, bytes('writing', corpusBytes));
    timings.push({ stage: 'writing', ms: performance.now() - writingStarted });
    inspector = new Inspector(
      result,
      ids,
      outputs.texts,
      shingleOptionsOf(params),
      settings.verify === 'exact',
      result.contamination?.referenceIds ?? [],
    );
    lastRun = record;
    const shown = { backend, backendNote, timings, inspector: inspector.sizes(outputs.textsDropped) };
    post({ type: 'result', summary: runSummary(record, deduped, shown), downloads: outputs.downloads });
  } finally {
    backend.backend.destroy();
  }
}

/** The run's signature parameters; with idf weights, the document frequencies first, counted as the CLI counts them. */
async function runParams(
  files: File[],
  settings: RunSettings,
  onIdfBytes: (bytes: number) => void,
): Promise<SignatureParams> {
  const idf = settings.weights === 'idf' ? await tabIdfTable(files, settings, onIdfBytes) : undefined;
  return makeParams({
    scheme: settings.scheme,
    weights: settings.weights,
    ...(idf && { idf: idf.identity }),
    k: settings.k,
    seed: settings.seed,
    shingle: settings.shingle,
    n: settings.n,
    nfkc: settings.nfkc,
    stripPunctuation: settings.stripPunctuation,
  });
}

/** The run's dedup, and the inputs it skipped. */
interface Deduped {
  readonly result: DedupDocumentsResult;
  readonly skippedFiles: string[];
  /** The first few skipped lines' messages. */
  readonly invalid: string[];
  readonly invalidSkipped: number;
}

/** dedupUnits over the files: the first pass runs in the pool's workers, from the files' bytes (src/firstPass). */
async function dedupFiles(
  files: File[],
  reference: File[],
  settings: RunSettings,
  params: SignatureParams,
  backend: FirstPassSigner,
  report: (progress: StageProgress) => void,
): Promise<Deduped> {
  const corpusBytes = files.reduce((sum, f) => sum + f.size, 0);
  const referenceBytes = reference.reduce((sum, f) => sum + f.size, 0);
  const skippedFiles: string[] = [];
  const invalid: string[] = [];
  let invalidSkipped = 0;
  const read = tabReadOptions(settings);
  const bytes = (stage: string, total: number) => (done: number) => report({ stage, done, total, unit: 'bytes' });
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
      // SimHash's exact decisions measure the angle between the shingle vectors, as the CLI's dedup --scheme simhash.
      measure: settings.scheme === 'simhash' ? 'angular' : 'jaccard',
      against: reference.length > 0 ? webInputUnits(reference, bytes('reference set', referenceBytes)) : undefined,
      onInvalid: (message) => {
        invalidSkipped++;
        if (invalid.length < 5) invalid.push(message);
      },
      onBinary: (path) => skippedFiles.push(`${path}: looks binary (NUL bytes or mostly invalid UTF-8), skipped`),
      stageWorkers: stageWorkers(),
      onStage: (stage) => report({ stage, done: 0, total: 1, unit: 'steps' }),
      onProgress: (stage, done, total) =>
        report({ stage, done, total, unit: stage === 'verification' ? 'pairs' : 'bands' }),
    },
  );
  if (result.table.documents === 0) {
    const why = skippedFiles.length > 0 ? ` (${skippedFiles.join('; ')})` : '';
    throw new InputError(files.map((f) => f.name).join(', '), 0, `no documents to deduplicate${why}`);
  }
  return { result, skippedFiles, invalid, invalidSkipped };
}

/** The result page's summary of a finished run. */
function runSummary(
  record: RunRecord,
  deduped: Deduped,
  shown: Pick<RunSummary, 'backendNote' | 'timings' | 'inspector'> & { readonly backend: FirstPassSigner },
): RunSummary {
  const { result, settings, params } = record;
  const { backend } = shown.backend;
  return {
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
    referenceDocuments: (result.contamination?.referenceIds ?? []).length,
    missingKeepField: result.missingKeepField,
    invalidSkipped: deduped.invalidSkipped,
    invalidExamples: deduped.invalid,
    skippedFiles: deduped.skippedFiles,
    backend: backend.description,
    backendKind: backend.kind === 'webgpu' ? 'webgpu' : 'cpu',
    backendNote: shown.backendNote,
    timings: shown.timings,
    plots: {
      curve: sCurveSvg({ ...result.lsh, threshold: settings.threshold }),
      histogram: similarityHistogramSvg(verifiedPairsHistogram(result.verified, settings.threshold)),
    },
    inspector: shown.inspector,
  };
}

export type { DedupDocumentsResult };
