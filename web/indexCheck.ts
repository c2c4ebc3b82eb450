/**
 * The page's side of "Check against a saved index": the picked folder and
 * files go to the index worker (indexWorker.ts); its rows fill the table and
 * its JSON Lines become the download. Nothing leaves the tab.
 */
import { byId, formatBytes, plural, row, setDownload, setMessage } from './dom.js';
import type { IndexMatch, QueryOptions } from '../src/lshIndex/types.js';
import type { IndexCheckReply, IndexCheckRequest } from './indexWorker.js';
import { forThisPage } from './messages.js';

const folderInput = byId<HTMLInputElement>('index-dir');
const filesInput = byId<HTMLInputElement>('files');
const button = byId<HTMLButtonElement>('check-index');
const stop = byId<HTMLButtonElement>('stop-check');
const status = byId<HTMLParagraphElement>('index-status');
const results = byId<HTMLDivElement>('index-results');
const table = byId<HTMLTableElement>('index-table');
const LABELS = ['Document', 'Matched indexed document', 'Similarity'];

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

function similarity(match: IndexMatch): string {
  if (match.containment !== undefined) {
    const exact = match.exactContainment;
    return exact === undefined
      ? `containment ${match.containment.toFixed(3)}`
      : `containment ${exact.toFixed(3)} exact (estimate ${match.containment.toFixed(3)})`;
  }
  return match.exact === undefined
    ? match.similarity.toFixed(3)
    : `${match.exact.toFixed(3)} exact (estimate ${match.similarity.toFixed(3)})`;
}

/**
 * The form's question: the threshold, or --top K / --containment C (its value checked by the index's options table).
 */
function question(): QueryOptions {
  const kind = byId<HTMLSelectElement>('index-question').value;
  const text = byId<HTMLInputElement>('index-question-value').value.trim();
  if (kind === 'threshold') return {};
  const value = text === '' ? (kind === 'top' ? 10 : 0.8) : Number(text);
  return kind === 'top' ? { top: value } : { containment: value };
}

/**
 * Rows a page of the table shows: a page of 50 documents held 4,826 rows (281,000 px) when each had a hundred
 * matches, and turning it blocked the page for half a second.
 */
export const PAGE_ROWS = 50;
const previous = byId<HTMLButtonElement>('index-previous');
const next = byId<HTMLButtonElement>('index-next');
/** The table's rows: a document's id with one match, or with none. */
let tableRows: Array<readonly [string, IndexMatch | undefined]> = [];
let page = 0;

/** One row per match, and one for a document without any (what the table lists). */
function rowsOf(documents: Extract<IndexCheckReply, { type: 'checked' }>['rows']): typeof tableRows {
  const rows: typeof tableRows = [];
  for (const doc of documents) {
    if (doc.matches.length === 0) rows.push([doc.id, undefined]);
    for (const match of doc.matches) rows.push([doc.id, match]);
  }
  return rows;
}

function showPage(to: number): void {
  const pages = Math.max(1, Math.ceil(tableRows.length / PAGE_ROWS));
  page = Math.min(Math.max(0, to), pages - 1);
  const body = table.tBodies[0];
  body.replaceChildren();
  const from = page * PAGE_ROWS;
  for (const [id, match] of tableRows.slice(from, from + PAGE_ROWS))
    body.append(
      row([id, match === undefined ? 'no match' : match.id, match === undefined ? '' : similarity(match)], LABELS, [
        false,
        false,
        true,
      ]),
    );
  byId('index-page').textContent =
    `Rows ${from + 1}–${Math.min(from + PAGE_ROWS, tableRows.length)} of ${tableRows.length.toLocaleString('en-US')} ` +
    `(page ${page + 1} of ${pages})`;
  previous.disabled = page === 0;
  next.disabled = page === pages - 1;
  byId<HTMLElement>('index-results').querySelector('nav')!.hidden = pages === 1;
}

previous.addEventListener('click', () => showPage(page - 1));
next.addEventListener('click', () => showPage(page + 1));

function showResults(reply: Extract<IndexCheckReply, { type: 'checked' }>): void {
  tableRows = rowsOf(reply.rows);
  showPage(0);
  setDownload(byId<HTMLAnchorElement>('download-matches'), reply.jsonl, byId('matches-bytes'));
  results.hidden = false;
  const shown =
    reply.rows.length < reply.documents
      ? ` The table shows the first ${plural(reply.rows.length, 'document')}; the download has all.`
      : '';
  // What was not read is said, as gpudedup query notes it: "Checked 0 documents" alone hid it.
  const skipped = reply.skipped.length > 0 ? ` Not read: ${reply.skipped.join('; ')}.` : '';
  show(
    `Checked ${plural(reply.documents, 'document')} against ${plural(reply.indexed, 'indexed document')} ` +
      `(${reply.question}): ` +
      `${plural(reply.matched, 'document')} with a match.${shown}${skipped}`,
  );
}

// Leaving or reloading the page mid-check loses the check: the browser asks first, as during a dedup run.
window.addEventListener('beforeunload', (event) => {
  if (worker === undefined) return;
  event.preventDefault();
  event.returnValue = ''; // older Chromium asks only with returnValue set
});

function finish(): void {
  button.disabled = false;
  stop.hidden = true;
  worker?.terminate();
  worker = undefined;
  status.dataset.settled = String(Number(status.dataset.settled ?? 0) + 1); // for tests
  status.focus();
}

button.addEventListener('click', () => {
  const index = indexFiles();
  const files = Array.from(filesInput.files ?? []);
  results.hidden = true;
  if (index.length === 0 || files.length === 0) {
    const noIndex = (folderInput.files?.length ?? 0) === 0 ? 'Choose the index folder first.' : folderSummary();
    show(index.length === 0 ? noIndex : 'Choose the files to check first (Files, above).', true);
    return finish();
  }
  if (!index.some((file) => file.name === 'manifest.json')) {
    show(
      `${folderName(index)} is not an index: it has no manifest.json. Choose the folder that gpudedup index create made.`,
      true,
    );
    return finish();
  }
  const value = (id: string, fallback: string): string => byId<HTMLInputElement>(id).value.trim() || fallback;
  const request: IndexCheckRequest = {
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
  button.disabled = true;
  stop.hidden = false;
  show('Opening the index…');
  worker = new Worker(new URL('./indexWorker.ts', import.meta.url), { type: 'module', name: 'gpudedup index' });
  worker.onmessage = (event: MessageEvent<IndexCheckReply>) => {
    const reply = event.data;
    if (reply.type === 'progress') return show(`Checked ${plural(reply.documents, 'document')}…`);
    if (reply.type === 'checked') showResults(reply);
    else show(forThisPage(reply.message), true);
    finish();
  };
  worker.onerror = (event) => {
    event.preventDefault();
    show(`The index worker failed: ${event.message || 'unknown error'}`, true);
    finish();
  };
  worker.postMessage(request);
});

// Stops the check at once (the worker terminated); the picked folder and files stay.
stop.addEventListener('click', () => {
  if (worker === undefined) return;
  show('Stopped. The index and files are unchanged; press Check against the index to run again.');
  finish();
});
