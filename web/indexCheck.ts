/**
 * The page's side of "Check against a saved index": the picked folder and
 * files go to the index worker (indexWorker.ts); its rows fill the table and
 * its JSON Lines become the download. Nothing leaves the tab.
 */
import { OPTIONS } from '../src/options.js';
import type { QueryOptions } from '../src/lshIndex/types.js';
import { byId, formatBytes, plural, setDownload, setMessage } from './dom.js';
import { clearIndexRows, showIndexRows } from './indexTable.js';
import type { IndexCheckReply, IndexCheckRequest } from './indexWorker.js';
import { forThisPage } from './messages.js';
import { ProgressView, type RunEnd } from './progressView.js';
import { clearFieldError, FieldError, fieldCheck, showFieldError } from './settingsForm.js';

const folderInput = byId<HTMLInputElement>('index-dir');
const filesInput = byId<HTMLInputElement>('files');
const button = byId<HTMLButtonElement>('check-index');
const stop = byId<HTMLButtonElement>('stop-check');
const status = byId<HTMLParagraphElement>('index-status');
const results = byId<HTMLDivElement>('index-results');
const progress = new ProgressView(byId('index-progress'), () => undefined);

let worker: Worker | undefined;

/** The picked folder's name (the first part of a file's relative path), else "the index". */
function folderName(files: readonly File[]): string {
  return files[0]?.webkitRelativePath.split('/')[0] || 'the index';
}

/** The folder's own files: a nested folder (another index, a backup) is not this index's. */
function indexFiles(): File[] {
  return Array.from(folderInput.files ?? []).filter((file) => file.webkitRelativePath.split('/').length <= 2);
}

// New files or another index: the last check's rows answered other questions (a check under way keeps its own).
for (const input of [filesInput, folderInput])
  input.addEventListener('change', () => {
    if (worker !== undefined) return;
    results.hidden = true;
    clearIndexRows();
    byId('index-progress').hidden = true;
    show('');
  });

folderInput.addEventListener('change', () => setMessage(byId('index-summary'), folderSummary()));

/**
 * What the picked folder is: an index's files, or a folder that only holds indexes further down (picked one level
 * too high: "No index chosen" said nothing of it), or nothing.
 */
function folderSummary(): string {
  const all = Array.from(folderInput.files ?? []);
  const own = indexFiles();
  if (own.length > 0)
    return `${folderName(own)}: ${plural(own.length, 'file')} (${formatBytes(own.reduce((n, f) => n + f.size, 0))})`;
  if (all.length === 0) return 'No index chosen.';
  const nested = all
    .map((f) => f.webkitRelativePath)
    .filter((path) => path.endsWith('/manifest.json'))
    .map((path) => path.slice(0, -'/manifest.json'.length))
    .sort();
  return nested.length === 0
    ? `${folderName(all)} holds no index (no manifest.json in it or its folders).`
    : `${folderName(all)} is not an index itself; it holds ${nested.length === 1 ? 'one' : plural(nested.length, 'index', 'indexes')} in ${nested.slice(0, 3).join(', ')}: choose that folder.`;
}

function show(message: string, isError = false): void {
  setMessage(status, message);
  status.classList.toggle('error', isError);
  status.setAttribute('role', isError ? 'alert' : 'status');
}

/** The K/C field's name in messages, as the question chosen reads it. */
const VALUE_LABELS: Record<string, string> = {
  top: 'K (the most similar indexed documents)',
  containment: 'Containment C',
};

/**
 * The form's question: the threshold, or --top K / --containment C, the value checked by the options table as
 * `gpudedup query` checks it; a bad one marks the field (FieldError).
 */
function question(): QueryOptions {
  const kind = byId<HTMLSelectElement>('index-question').value;
  const text = questionValue.value.trim();
  if (kind === 'threshold') return {};
  const label = VALUE_LABELS[kind];
  if (kind === 'top')
    return { top: text === '' ? 10 : fieldCheck(questionValue.id, () => OPTIONS.top.parse(text), label) };
  return {
    containment: text === '' ? 0.8 : fieldCheck(questionValue.id, () => OPTIONS.containment.parse(text), label),
  };
}

const questionValue = byId<HTMLInputElement>('index-question-value');
for (const id of ['index-question', 'index-question-value'])
  byId(id).addEventListener('input', () => clearFieldError(questionValue));

function showResults(reply: Extract<IndexCheckReply, { type: 'checked' }>): void {
  showIndexRows(reply.rows);
  setDownload(byId<HTMLAnchorElement>('download-matches'), reply.jsonl, byId('matches-bytes'));
  results.hidden = false;
  // What was not read is said, as gpudedup query notes it: "Checked 0 documents" alone hid it.
  const skipped = reply.skipped.length > 0 ? ` Not read: ${reply.skipped.join('; ')}.` : '';
  show(
    `Checked ${plural(reply.documents, 'document')} against ${plural(reply.indexed, 'indexed document')} ` +
      `(${reply.question}): ` +
      `${plural(reply.matched, 'document')} with a match.${skipped}`,
  );
}

// Leaving or reloading the page mid-check loses the check: the browser asks first, as during a dedup run.
window.addEventListener('beforeunload', (event) => {
  if (worker === undefined) return;
  event.preventDefault();
  event.returnValue = ''; // older Chromium asks only with returnValue set
});

/** The check is over (done, failed, refused or stopped): Check is back, and the focus goes to `focus`. */
function finish(end: RunEnd | undefined, focus: HTMLElement = status): void {
  button.disabled = false;
  stop.hidden = true;
  worker?.terminate();
  worker = undefined;
  if (end !== undefined) progress.stop(end);
  status.dataset.settled = String(Number(status.dataset.settled ?? 0) + 1); // for tests
  focus.focus();
}

/** Why the check cannot start (no index or no files, a folder without a manifest), or undefined. */
function refusal(index: readonly File[], files: readonly File[]): string | undefined {
  if (index.length === 0)
    return (folderInput.files?.length ?? 0) === 0 ? 'Choose the index folder first.' : folderSummary();
  if (files.length === 0) return 'Choose the files to check first (Files, above).';
  if (!index.some((file) => file.name === 'manifest.json'))
    return `${folderName(index)} is not an index: it has no manifest.json. Choose the folder that gpudedup index create made.`;
  return undefined;
}

/** The check's request from the form; a bad K or C throws its FieldError. */
function requestOf(index: File[], files: File[]): IndexCheckRequest {
  const value = (id: string, fallback: string): string => byId<HTMLInputElement>(id).value.trim() || fallback;
  return {
    type: 'check',
    index,
    name: folderName(index),
    files,
    read: {
      textField: value('text-field', 'text'),
      idField: value('id-field', 'id'),
      skipInvalid: byId<HTMLInputElement>('skip-invalid').checked,
    },
    query: question(),
  };
}

button.addEventListener('click', () => {
  const index = indexFiles();
  const files = Array.from(filesInput.files ?? []);
  results.hidden = true;
  const refused = refusal(index, files);
  if (refused !== undefined) {
    show(refused, true);
    return finish(undefined);
  }
  let request: IndexCheckRequest;
  try {
    request = requestOf(index, files);
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    showFieldError(error);
    show(error.message, true);
    return finish(undefined, error.field);
  }
  clearFieldError(questionValue);
  run(request);
});

/** Runs the check in the index worker, its progress drawn as the dedup's is. */
function run(request: IndexCheckRequest): void {
  button.disabled = true;
  stop.hidden = false;
  stop.focus(); // Check just disabled itself: the focus would fall to the page
  progress.reset();
  show('Opening the index…');
  worker = new Worker(new URL('./indexWorker.ts', import.meta.url), { type: 'module', name: 'gpudedup index' });
  worker.onmessage = (event: MessageEvent<IndexCheckReply>) => {
    const reply = event.data;
    if (reply.type === 'progress') {
      progress.update({ stage: 'checking', done: reply.bytes, total: reply.total, unit: 'bytes' });
      return show(`Checked ${plural(reply.documents, 'document')}…`);
    }
    if (reply.type === 'checked') showResults(reply);
    else show(forThisPage(reply.message), true);
    finish(reply.type === 'checked' ? 'done' : 'failed');
  };
  worker.onerror = (event) => {
    event.preventDefault();
    show(`The index worker failed: ${event.message || 'unknown error'}`, true);
    finish('failed');
  };
  worker.postMessage(request);
}

// Stops the check at once (the worker terminated); the picked folder and files stay.
stop.addEventListener('click', () => {
  if (worker === undefined) return;
  show('Stopped. The index and files are unchanged; press Check against the index to run again.');
  finish('cancelled');
});
