/**
 * The page: files in, one dedup run per click, results and downloads out.
 * Everything happens in this tab; the only network traffic is loading the page.
 */
import type { ClusterCheck } from '../src/clusters/clustering.js';
import type { KeepPolicy } from '../src/clusters/keepPolicy.js';
import type { VerifyMode } from '../src/clusters/verification.js';
import type { ShingleMode } from '../src/shingles/shingles.js';
import type { SignerBackend } from '../src/signatures/backend.js';
import { CpuSigner } from '../src/signatures/cpuSigner.js';
import { FallbackSigner } from '../src/signatures/fallbackSigner.js';
import { hashFamilyOf, makeParams, shingleOptionsOf } from '../src/signatures/params.js';
import { resolveBrowserBackend } from '../src/signatures/webgpu/browser.js';
import { dedupDocuments, type DedupDocumentsResult, type StageTime } from '../src/clusters/dedupDocuments.js';
import { defaultLshParams } from '../src/clusters/dedupSigned.js';
import { clusterSizes, clustersCsv, formatBytes, keptJsonl, setDownload } from './downloads.js';
import { readFiles, type WebDocument } from './readFiles.js';
import { errorMessage } from '../src/errors.js';

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`index.html lacks #${id}`);
  return element as T;
}

const form = byId<HTMLFormElement>('dedup-form');
const filesInput = byId<HTMLInputElement>('files');
const dropZone = byId<HTMLDivElement>('drop-zone');
const fileSummary = byId<HTMLParagraphElement>('file-summary');
const runButton = byId<HTMLButtonElement>('run');
const status = byId<HTMLParagraphElement>('status');
const results = byId<HTMLElement>('results');

const MAX_CLUSTER_ROWS = 100;
const SNIPPET_CHARS = 160;

// ---- choosing files -------------------------------------------------------

function describeFiles(): void {
  const files = Array.from(filesInput.files ?? []);
  if (files.length === 0) {
    fileSummary.textContent = 'No files chosen.';
    return;
  }
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  const names = files.slice(0, 3).map((file) => file.name).join(', ') + (files.length > 3 ? ', …' : '');
  fileSummary.textContent = `${files.length} file${files.length === 1 ? '' : 's'} (${formatBytes(bytes)}): ${names}`;
}

filesInput.addEventListener('change', describeFiles);
dropZone.addEventListener('dragover', (event) => {
  event.preventDefault(); // allows the drop
  dropZone.classList.add('dragging');
});
dropZone.addEventListener('dragleave', () => dropZone.classList.remove('dragging'));
dropZone.addEventListener('drop', (event) => {
  event.preventDefault(); // the browser would otherwise open the file
  dropZone.classList.remove('dragging');
  if (event.dataTransfer && event.dataTransfer.files.length > 0) {
    filesInput.files = event.dataTransfer.files;
    describeFiles();
  }
});

// ---- one run --------------------------------------------------------------

interface FormSettings {
  readonly threshold: number;
  readonly k: number;
  readonly shingle: ShingleMode;
  readonly n: number;
  readonly verify: VerifyMode;
  readonly clusterCheck: ClusterCheck;
  readonly keep: KeepPolicy;
  readonly backend: 'auto' | 'cpu';
  readonly textField: string;
  readonly idField: string;
}

function readForm(): FormSettings {
  const value = (id: string): string => byId<HTMLInputElement | HTMLSelectElement>(id).value.trim();
  const threshold = Number(value('threshold'));
  if (!(threshold > 0 && threshold < 1)) throw new Error('The similarity threshold must be between 0 and 1, e.g. 0.8.');
  return {
    threshold,
    k: Number(value('k')),
    shingle: value('shingle') as ShingleMode,
    n: Number(value('n')),
    verify: value('verify') as VerifyMode,
    clusterCheck: value('cluster-check') as ClusterCheck,
    keep: { kind: value('keep') as 'first' | 'longest' },
    backend: value('backend-choice') as 'auto' | 'cpu',
    textField: value('text-field') || 'text',
    idField: value('id-field') || 'id',
  };
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void run();
});

async function run(): Promise<void> {
  const files = Array.from(filesInput.files ?? []);
  if (files.length === 0) {
    showStatus('Choose at least one file first.', true);
    filesInput.focus();
    return;
  }
  runButton.disabled = true;
  let backend: SignerBackend | undefined;
  try {
    const settings = readForm();
    // makeParams validates k and n with the same messages as the CLI.
    const params = makeParams({ k: settings.k, shingle: settings.shingle, n: settings.n });
    const family = hashFamilyOf(params);
    const timings: StageTime[] = [];

    showStatus('Reading files…');
    let start = performance.now();
    const documents = await readFiles(files, settings);
    timings.push({ stage: 'read files', ms: performance.now() - start });

    showStatus('Preparing the signing backend…');
    start = performance.now();
    const chosen = await chooseBackend(settings.backend, family);
    backend = chosen.backend;
    timings.push({ stage: backend.kind === 'webgpu' ? 'WebGPU setup' : 'backend setup', ms: performance.now() - start });

    const result = await dedupDocuments(documents, {
      backend,
      threshold: settings.threshold,
      lsh: defaultLshParams(settings.threshold, params.k, settings.verify),
      shingle: shingleOptionsOf(params),
      slotBits: params.slotBits,
      verify: settings.verify,
      clusterCheck: settings.clusterCheck,
      keep: settings.keep,
      onStage: (stage) => {
        showStatus(stageMessage(stage, backend!));
        return yieldToBrowser(); // lets the page repaint: the stages themselves run on the main thread
      },
    });
    const fellBack = backend instanceof FallbackSigner && backend.fallbackReason !== undefined;
    showResults(documents, result, [...timings, ...result.timings], backend, fellBack ? 'The GPU failed during the run; the remaining batches were signed on the CPU.' : chosen.note);
    const total = [...timings, ...result.timings].reduce((sum, t) => sum + t.ms, 0);
    showStatus(`Done in ${formatMs(total)} ms.`);
  } catch (error) {
    console.error(error);
    showStatus(errorMessage(error), true);
  } finally {
    backend?.destroy();
    runButton.disabled = false;
  }
}

/**
 * WebGPU when the browser has an adapter, else the CPU backend (identical
 * signatures, slower) with a note saying why. A GPU that fails mid-run hands
 * the remaining batches to the CPU (FallbackSigner).
 */
async function chooseBackend(choice: 'auto' | 'cpu', family: ReturnType<typeof hashFamilyOf>): Promise<{ backend: SignerBackend; note?: string }> {
  if (choice === 'cpu') return { backend: new CpuSigner(family), note: 'CPU backend chosen in the settings.' };
  const resolved = await resolveBrowserBackend('auto', family);
  if (resolved.backend.kind === 'cpu') {
    const reason = resolved.notes.find((note) => note.startsWith('webgpu:'))?.slice('webgpu:'.length).trim() ?? 'unknown reason';
    return { backend: resolved.backend, note: `WebGPU is not available here (${reason}), so documents were signed on the CPU: same signatures, slower.` };
  }
  return { backend: new FallbackSigner(resolved.backend, family) };
}

/** Resolves after the browser had a chance to repaint. */
const yieldToBrowser = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

function stageMessage(stage: string, backend: SignerBackend): string {
  switch (stage) {
    case 'signing':
      return `Finding exact duplicates, shingling and signing on the ${backend.kind === 'webgpu' ? 'GPU' : 'CPU'}…`;
    case 'banding':
      return 'Banding signatures into buckets…';
    default:
      return `${stage[0].toUpperCase()}${stage.slice(1)}…`;
  }
}

function showStatus(message: string, isError = false): void {
  status.textContent = message;
  status.classList.toggle('error', isError);
  status.setAttribute('role', isError ? 'alert' : 'status');
}

// ---- results --------------------------------------------------------------

function showResults(documents: readonly WebDocument[], result: DedupDocumentsResult, timings: StageTime[], backend: SignerBackend, note?: string): void {
  const backendLine = byId<HTMLParagraphElement>('backend');
  backendLine.textContent = `Signed with ${backend.description}.`;
  backendLine.dataset.backendKind = backend.kind; // for tests and styling
  const noteLine = byId<HTMLParagraphElement>('backend-note');
  noteLine.hidden = note === undefined;
  noteLine.textContent = note ?? '';

  const { counts } = result.assignment;
  const { lsh } = result;
  for (const element of results.querySelectorAll<HTMLElement>('[data-stat]')) {
    const key = element.dataset.stat as keyof typeof counts;
    element.textContent = counts[key].toLocaleString('en');
  }
  byId('run-details').textContent =
    `${counts.clusters.toLocaleString('en')} clusters in all; LSH with ${lsh.bands} bands of ${lsh.rows} rows; ` +
    `${result.verified.candidates.toLocaleString('en')} candidate pairs, ${result.verified.a.length.toLocaleString('en')} verified; ` +
    `${result.shingles.toLocaleString('en')} shingles signed.`;

  const timingRows = byId<HTMLTableElement>('timings').tBodies[0];
  timingRows.replaceChildren(...timings.map((t) => row([t.stage, formatMs(t.ms)], [false, true])));
  const total = timings.reduce((sum, t) => sum + t.ms, 0);
  const totalRow = row(['total', formatMs(total)], [false, true]);
  totalRow.classList.add('total');
  timingRows.append(totalRow);

  setDownload(byId('download-kept'), keptJsonl(documents, result.assignment), 'application/x-ndjson', byId('kept-bytes'));
  setDownload(byId('download-clusters'), clustersCsv(documents, result.assignment), 'text/csv', byId('clusters-bytes'));

  showClusters(documents, result);
  results.hidden = false;
}

function showClusters(documents: readonly WebDocument[], result: DedupDocumentsResult): void {
  const { cluster, kept, counts } = result.assignment;
  const sizes = clusterSizes(cluster, counts.clusters);
  const members: number[][] = Array.from({ length: counts.clusters }, () => []);
  cluster.forEach((c, d) => {
    if (sizes[c] > 1) members[c].push(d);
  });
  const shown = members
    .map((docs, c) => ({ c, docs }))
    .filter(({ docs }) => docs.length > 1)
    .sort((x, y) => y.docs.length - x.docs.length || x.c - y.c);
  byId('clusters-summary').textContent =
    shown.length === 0
      ? 'No duplicates found: every document is kept.'
      : `${shown.length.toLocaleString('en')} cluster${shown.length === 1 ? '' : 's'} of two or more documents, largest first` +
        (shown.length > MAX_CLUSTER_ROWS ? ` (the first ${MAX_CLUSTER_ROWS} shown; the CSV has all).` : '.');
  const rows = shown.slice(0, MAX_CLUSTER_ROWS).map(({ c, docs }) => {
    const keptDoc = docs.find((d) => kept[d] === 1) ?? docs[0];
    const removed = docs.filter((d) => d !== keptDoc).map((d) => documents[d].id);
    const distinctTexts = new Set(docs.map((d) => result.table.group(d))).size;
    const snippet = documents[keptDoc].text.replace(/\s+/g, ' ').trim().slice(0, SNIPPET_CHARS);
    return row(
      [
        String(c),
        distinctTexts > 1 ? 'near' : 'exact',
        String(docs.length),
        documents[keptDoc].id,
        removed.slice(0, 5).join(', ') + (removed.length > 5 ? ` +${removed.length - 5} more` : ''),
        snippet + (snippet.length === SNIPPET_CHARS ? '…' : ''),
      ],
      [true, false, true, false, false, false],
    );
  });
  byId<HTMLTableElement>('clusters').tBodies[0].replaceChildren(...rows);
}

function row(cells: string[], numeric: boolean[]): HTMLTableRowElement {
  const tr = document.createElement('tr');
  cells.forEach((text, i) => {
    const td = document.createElement('td');
    td.textContent = text; // never innerHTML: ids and texts come from the user's files
    if (numeric[i]) td.className = 'num';
    tr.append(td);
  });
  return tr;
}

function formatMs(ms: number): string {
  return ms < 10 ? ms.toFixed(1) : Math.round(ms).toLocaleString('en');
}
