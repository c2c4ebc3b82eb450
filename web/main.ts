/**
 * The page: it only draws. Files and settings go to the dedup worker
 * (dedupWorker.ts, which runs the library's dedupDocumentStream, and the
 * repeated-span search: spansView.ts); progress, results and the inspector's
 * answers come back. Nothing leaves the tab.
 */
import { defaultSeedOf } from '../src/signatures/params.js';
import { OPTIONS } from '../src/options.js';
import { applyOptionDefaults } from './formDefaults.js';
import { byId, formatBytes, formatSeconds, setMessage, setText, type UserText } from './dom.js';
import { InspectorView } from './inspectorView.js';
import './indexCheck.js'; // Check against a saved index: its own button, worker and results
import { forThisPage } from './messages.js';
import { ProgressView, type RunEnd } from './progressView.js';
import { ResultsView } from './resultsView.js';
import { SpansView } from './spansView.js';
import type { BackendChoice, BackendProbe, RunSettings } from './protocol.js';
import { clearFieldError, drawSettingsCurve, FieldError, readSettings, showFieldError, value } from './settingsForm.js';
import { WorkerClient } from './workerClient.js';

const form = byId<HTMLFormElement>('dedup-form');
const filesInput = byId<HTMLInputElement>('files');
const referenceInput = byId<HTMLInputElement>('reference');
const dropZone = byId<HTMLDivElement>('drop-zone');
const runButton = byId<HTMLButtonElement>('run');
const cancelButton = byId<HTMLButtonElement>('cancel');
const status = byId<HTMLParagraphElement>('status');
const results = byId<HTMLElement>('results');
const progressList = byId<HTMLOListElement>('progress');

applyOptionDefaults((id) => byId<HTMLInputElement | HTMLSelectElement>(id));

const client = new WorkerClient();
const inspector = new InspectorView(client);
const resultsView = new ResultsView(results, inspector, (table) => client.parquet(table));
const progress = new ProgressView(progressList, (label) => showStatus(label));
let probe: BackendProbe | undefined;

// ---- choosing files -------------------------------------------------------

function describeFiles(): void {
  const files = Array.from(filesInput.files ?? []);
  if (files.length === 0) {
    byId('file-summary').textContent = 'No files chosen.';
    return;
  }
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  const names = files
    .slice(0, 3)
    .flatMap((file, i): (string | UserText)[] => [...(i > 0 ? [', '] : []), { user: file.name }]);
  setText(
    byId('file-summary'),
    `${files.length} file${files.length === 1 ? '' : 's'} (${formatBytes(bytes)}): `,
    ...names,
    files.length > 3 ? ', …' : '',
  );
  clearFieldError(filesInput);
}

filesInput.addEventListener('change', describeFiles);
// New files: the last run's counts and downloads were another corpus's, so they go (a run under way keeps its own).
filesInput.addEventListener('change', () => {
  if (running) return;
  resultsView.clear();
  showStatus('');
});
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

// ---- settings, validated field by field (settingsForm.ts) ----------------------

for (const field of form.querySelectorAll<HTMLElement>('input, select')) {
  field.addEventListener('input', () => {
    clearFieldError(field);
    if (field.id === 'bands' || field.id === 'rows') {
      clearFieldError(byId('bands'));
      clearFieldError(byId('rows'));
    }
  });
}
// The seed follows the scheme's default until it is edited, as --seed does on the CLI (datasketch-*: 1, its MinHash
// seed).
let seedDefault = defaultSeedOf(OPTIONS.scheme.parse(value('scheme')));
byId('scheme').addEventListener('change', () => {
  const next = defaultSeedOf(OPTIONS.scheme.parse(value('scheme')));
  if (value('seed') === seedDefault || value('seed') === '') byId<HTMLInputElement>('seed').value = next;
  seedDefault = next;
  clearFieldError(byId('seed'));
});
byId('keep').addEventListener('change', () => (byId('keep-field').hidden = value('keep') !== 'field'));

for (const id of ['threshold', 'k', 'bands', 'rows', 'verify'])
  byId(id).addEventListener('input', () => void drawSettingsCurve());
void drawSettingsCurve();

// ---- which backend ------------------------------------------------------------

/** What a run will sign with, as the worker's backend choice will decide it (workerBackend.ts chooseBackend). */
function describePlan(): void {
  const plan = byId('backend-plan');
  const choice = value('backend-choice') as BackendChoice;
  const [kind, text] = planFor(choice, probe);
  plan.textContent = text;
  plan.dataset.plan = kind;
}

function planFor(
  choice: BackendChoice,
  found: BackendProbe | undefined,
): ['cpu' | 'webgpu' | 'unknown' | 'unavailable', string] {
  if (choice === 'cpu') return ['cpu', 'Will sign on the CPU, as chosen.'];
  if (found === undefined) return ['unknown', 'Checking for WebGPU…'];
  if (!found.webgpu) {
    if (choice === 'webgpu')
      return [
        'unavailable',
        `WebGPU is not available here (${found.detail}): a run would stop. Choose the CPU, or the default.`,
      ];
    return [
      'cpu',
      `Will sign on the CPU: WebGPU is not available here (${found.detail}). The signatures are the same, only slower.`,
    ];
  }
  if (!found.software) return ['webgpu', `Will sign with ${found.detail}.`];
  // A software adapter shares the CPU path's cores and was 3–4× slower than it (src/signatures/webgpu/browser.ts).
  if (choice === 'webgpu')
    return ['webgpu', `Will sign with ${found.detail}, as chosen (a software adapter: slower than the CPU here).`];
  return [
    'cpu',
    `Will sign on the CPU: the only WebGPU here is a software adapter (${found.detail}), slower than this tab's CPU ` +
      `workers. Same signatures; “WebGPU, even a software adapter” uses it anyway.`,
  ];
}
byId('backend-choice').addEventListener('change', describePlan);
function watchProbe(): void {
  void client.probe.then((found) => {
    probe = found;
    describePlan();
  });
}
watchProbe();
// Stopping a span search replaces the worker, and the last dedup's inspector with it: its results go too.
const spansView = new SpansView(
  client,
  () => Array.from(filesInput.files ?? []),
  () => {
    watchProbe();
    resultsView.clear();
  },
  // The search ended: an alert saying Dedup waits for it is stale (it stayed after Stop).
  () => {
    if (status.textContent === DEDUP_WAIT) showStatus('');
  },
);

/** The alert of a Dedup pressed during a span search (gone when the search ends). */
const DEDUP_WAIT = 'A repeated-span search is in progress: wait for it, or stop it.';

// ---- one run ----------------------------------------------------------------

let running = false;

form.addEventListener('submit', (event) => {
  event.preventDefault();
  if (!running) void start();
});

cancelButton.addEventListener('click', () => {
  if (!running) return;
  client.cancel(); // terminates the worker at once; files and settings stay as they are
  watchProbe();
  finish('cancelled');
  showStatus('Cancelled. Files and settings are unchanged; press Dedup to run again.', false, true);
  status.focus(); // the Cancel button just hid itself: focus would fall to the page
});

// Leaving or reloading the page mid-run loses the run: the browser asks first.
window.addEventListener('beforeunload', (event) => {
  if (!running || cancelButton.hidden) return; // not while only the settings are checked
  event.preventDefault();
  event.returnValue = ''; // older Chromium asks only with returnValue set
});

async function start(): Promise<void> {
  if (client.busy) return showStatus(DEDUP_WAIT, true, true);
  const files = Array.from(filesInput.files ?? []);
  let settings: RunSettings;
  running = true; // no second start while the settings are checked
  try {
    if (files.length === 0) throw new FieldError(filesInput, 'Choose at least one file first.');
    settings = await readSettings();
  } catch (error) {
    if (error instanceof FieldError) {
      if (error.field === filesInput) {
        setMessage(byId('files-error'), error.message);
        byId('files-error').hidden = false;
        filesInput.setAttribute('aria-invalid', 'true');
        filesInput.focus();
      } else showFieldError(error);
      showStatus(error.message, true, true);
      running = false;
      return;
    }
    running = false;
    throw error;
  }
  resultsView.clear();
  const pressed = document.activeElement === runButton;
  runButton.disabled = true;
  cancelButton.hidden = false;
  if (pressed) cancelButton.focus(); // Dedup just disabled itself: the focus would fall to the page
  progress.reset();
  showStatus('Starting…');
  const started = performance.now();
  client.run(files, Array.from(referenceInput.files ?? []), settings, {
    progress: (p) => progress.update(p),
    result: (summary, downloads) => {
      finish('done');
      const seconds = formatSeconds(performance.now() - started);
      resultsView.show(summary, downloads).then(
        () => {
          showStatus(`Done in ${seconds} s.`, false, true);
          byId('results-heading').focus(); // Dedup was disabled during the run: focus goes to what it made
        },
        (error: unknown) => {
          showStatus(`The results could not be shown: ${(error as Error).message}`, true, true);
          status.focus();
        },
      );
    },
    error: (message) => {
      finish('failed');
      resultsView.clear();
      showStatus(forThisPage(message), true, true);
      status.focus();
    },
  });
}

function finish(end: RunEnd): void {
  running = false;
  runButton.disabled = false;
  cancelButton.hidden = true;
  progress.stop(end);
  spansView.dedupEnded();
}

/**
 * `settled` marks the end of a press of Dedup (done, failed, refused or cancelled): data-settled counts them, for
 * tests.
 */
function showStatus(message: string, isError = false, settled = false): void {
  if (settled) status.dataset.settled = String(Number(status.dataset.settled ?? 0) + 1);
  setMessage(status, message);
  status.classList.toggle('error', isError);
  status.setAttribute('role', isError ? 'alert' : 'status');
}
