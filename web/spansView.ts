/**
 * The repeated-span section (`gpudedup substrings` in the tab): its settings
 * read and checked by the options table (the form's defaults come from it too,
 * formDefaults.ts), the search run by the dedup worker (substringsRun.ts), and
 * its counts, most repeated spans and downloads drawn. Main thread: it only
 * draws; texts from the files go in through textContent (ids in `<bdi>`).
 */
import { OPTIONS } from '../src/options.js';
import {
  byId,
  formatBytes,
  formatSeconds,
  int,
  noteItem,
  plural,
  row,
  setDownload,
  setMessage,
  setText,
} from './dom.js';
import { forThisPage } from './messages.js';
import { ProgressView } from './progressView.js';
import type { SpanDownloads, SpanSettings, SpanSummary } from './protocol.js';
import { clearFieldError, FieldError, fieldCheck, showFieldError, value } from './settingsForm.js';
import type { WorkerClient } from './workerClient.js';

const DOWNLOADS = ['edited', 'spans', 'spans-report', 'spans-report-html'] as const;
const FIELDS = ['min-length', 'cut', 'min-remaining'];
/** The alert of a search asked for during a dedup run (gone when the run ends). */
const SPANS_WAIT = 'A dedup run is in progress: wait for it, or cancel it.';
const TOP_LABELS = ['Occurrences', 'Bytes', 'First in', 'At byte', 'Text begins'];

function readSpanSettings(): SpanSettings {
  return {
    minLength: fieldCheck('min-length', () => OPTIONS.minLength.parse(value('min-length'))),
    cut: fieldCheck('cut', () => OPTIONS.cut.parse(value('cut'))),
    minRemaining: fieldCheck('min-remaining', () => OPTIONS.minRemaining.parse(value('min-remaining'))),
    textField: fieldCheck('text-field', () => OPTIONS.textField.parse(value('text-field'))),
    idField: fieldCheck('id-field', () => OPTIONS.idField.parse(value('id-field'))),
    skipInvalid: byId<HTMLInputElement>('skip-invalid').checked,
  };
}

export class SpansView {
  private readonly status = byId<HTMLParagraphElement>('spans-status');
  private readonly findButton = byId<HTMLButtonElement>('find-spans');
  private readonly stopButton = byId<HTMLButtonElement>('stop-spans');
  private readonly progress = new ProgressView(byId('spans-progress'), (label) => this.say(label));

  constructor(
    private readonly client: WorkerClient,
    private readonly files: () => File[],
    /** Called when Stop replaced the worker (the page watches the new one's probe, and drops the dedup's results). */
    private readonly onStopped: () => void,
    /** Called when a search ends (done, failed or stopped): the page's "a search is in progress" alert is stale. */
    private readonly onEnded: () => void = () => undefined,
  ) {
    for (const id of FIELDS) byId(id).addEventListener('input', () => clearFieldError(byId(id)));
    this.findButton.addEventListener('click', () => this.start());
    this.stopButton.addEventListener('click', () => this.stop());
    // Leaving or reloading the page mid-search loses the search: the browser asks first, as during a dedup run.
    window.addEventListener('beforeunload', (event) => {
      if (!this.findButton.disabled) return;
      event.preventDefault();
      event.returnValue = ''; // older Chromium asks only with returnValue set
    });
    // New files: the last search's counts and downloads were another corpus's (a search under way keeps its own).
    byId('files').addEventListener('change', () => {
      if (!this.findButton.disabled) {
        this.clear();
        this.say('');
      }
    });
  }

  private start(): void {
    if (this.client.busy) {
      this.say(SPANS_WAIT, true, true);
      return;
    }
    const files = this.files();
    let settings: SpanSettings;
    try {
      if (files.length === 0) throw new FieldError(byId('files'), 'Choose at least one file first (under Files).');
      settings = readSpanSettings();
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      if (error.field.id === 'files') error.field.focus();
      else showFieldError(error);
      this.say(error.message, true, true);
      return;
    }
    this.clear();
    const pressed = document.activeElement === this.findButton;
    this.findButton.disabled = true;
    this.stopButton.hidden = false;
    if (pressed) this.stopButton.focus(); // the button just disabled itself: the focus would fall to the page
    this.progress.reset();
    this.say('Starting…');
    const started = performance.now();
    this.client.substrings(files, settings, {
      progress: (p) => this.progress.update(p),
      result: (summary, downloads) => {
        this.finish('done');
        this.show(summary, downloads);
        this.say(`Done in ${formatSeconds(performance.now() - started)} s.`, false, true);
        byId('spans-results-heading').focus();
      },
      error: (message) => {
        this.finish('failed');
        this.say(forThisPage(message), true, true);
        this.status.focus();
      },
    });
  }

  private stop(): void {
    if (this.stopButton.hidden) return;
    this.client.cancel(); // terminates the worker at once; files and settings stay as they are
    this.onStopped();
    this.finish('cancelled');
    this.say('Stopped. Files and settings are unchanged; press Find repeated spans to run again.', false, true);
    this.status.focus();
  }

  private finish(end: 'done' | 'failed' | 'cancelled'): void {
    this.findButton.disabled = false;
    this.stopButton.hidden = true;
    this.progress.stop(end);
    this.onEnded();
  }

  /** The dedup run ended: an alert saying the search waits for it is stale, and goes. */
  dedupEnded(): void {
    if (this.status.textContent === SPANS_WAIT) this.say('');
  }

  /** No results, no download links from an earlier search. */
  private clear(): void {
    byId('spans-results').hidden = true;
    for (const name of DOWNLOADS) setDownload(byId(`download-${name}`), undefined, byId(`${name}-bytes`));
  }

  private show(summary: SpanSummary, downloads: SpanDownloads): void {
    const r = summary.report;
    const stats: Record<string, string> = {
      documents: int(r.documents),
      documentsTouched: int(r.documentsTouched),
      documentsDropped: int(r.documentsDropped),
      spans: int(r.spans),
      bytesCut: `${formatBytes(r.bytesCut)} (${((100 * r.bytesCut) / Math.max(1, r.textBytes)).toFixed(2)} %)`,
      rounds: int(r.search.rounds),
    };
    for (const dd of byId('spans-results').querySelectorAll<HTMLElement>('[data-span-stat]'))
      dd.textContent = stats[dd.dataset.spanStat!];
    byId('spans-details').textContent =
      `${formatBytes(r.textBytes)} of text; spans of at least ${shortestSpan(r)}, cut from ` +
      `${r.cut === 'later' ? 'every occurrence but the first' : 'every occurrence'}; documents left with under ` +
      `${plural(r.minRemaining, 'byte')} dropped. ${int(r.search.windows)} windows hashed, ` +
      `${int(r.search.collisions)} hash collisions resolved by their bytes, on ${plural(r.search.threads, 'thread')} ` +
      `(as gpudedup substrings --threads ${r.search.threads}: each thread takes a round at least).`;
    const notes = [
      ...summary.skippedFiles,
      ...(summary.invalidSkipped > 0 ? [`${plural(summary.invalidSkipped, 'malformed line')} skipped`] : []),
    ];
    const skipped = byId('spans-skipped');
    skipped.replaceChildren(...notes.map(noteItem));
    skipped.hidden = notes.length === 0;
    const rows = r.topSpans.map((t) => {
      const first = document.createElement('span');
      setText(first, { user: t.firstId });
      return row([int(t.count), int(t.bytes), first, int(t.firstStart), t.preview], TOP_LABELS, [
        true,
        true,
        false,
        true,
      ]);
    });
    byId('spans-top')
      .querySelector('tbody')!
      .replaceChildren(...rows);
    const blobs: Record<(typeof DOWNLOADS)[number], Blob> = {
      edited: downloads.edited,
      spans: downloads.spans,
      'spans-report': downloads.report,
      'spans-report-html': downloads.reportHtml,
    };
    for (const name of DOWNLOADS) setDownload(byId(`download-${name}`), blobs[name], byId(`${name}-bytes`));
    byId('spans-results').hidden = false;
  }

  /** `settled` marks the end of a press (done, failed, refused or stopped): data-settled counts them, for tests. */
  private say(message: string, isError = false, settled = false): void {
    if (settled) this.status.dataset.settled = String(Number(this.status.dataset.settled ?? 0) + 1);
    setMessage(this.status, message);
    this.status.classList.toggle('error', isError);
    this.status.setAttribute('role', isError ? 'alert' : 'status');
  }
}

/** The shortest span as the report gives it: bytes here (the tab searches bytes), tokens for --min-tokens. */
function shortestSpan(r: SpanSummary['report']): string {
  return r.minTokens === undefined ? plural(r.minLength ?? 0, 'byte') : plural(r.minTokens, 'normalized token');
}
