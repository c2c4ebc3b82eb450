/** The results of a run: the backend, the settings, counts, notes, times, downloads, plots and the inspector. */
import { describeKeepPolicy } from '../src/text/keepPolicy.js';
import { byId, formatSeconds, int, noteItem, plural, row, setDownload, showSvg } from './dom.js';
import { forThisPage } from './messages.js';
import type { InspectorView } from './inspectorView.js';
import type { Downloads, ParquetTable, RunSummary } from './protocol.js';
import { clearLazyDownload, setLazyDownload } from './lazyDownload.js';

const DOWNLOADS = [
  'kept',
  'clusters',
  'pairs',
  'contamination',
  'report',
  'report-html',
  'signatures',
  's-curve',
  'histogram',
] as const;
const PARQUET_TABLES: readonly ParquetTable[] = ['kept', 'clusters', 'pairs', 'contamination'];

export class ResultsView {
  constructor(
    private readonly section: HTMLElement,
    private readonly inspector: InspectorView,
    /** A table of the shown run as Parquet, made by the worker when its link is followed. */
    private readonly makeParquet: (table: ParquetTable) => Promise<Blob>,
  ) {}

  /** After an error or before a run: no results, no download links from an earlier run. */
  clear(): void {
    this.section.hidden = true;
    for (const name of DOWNLOADS)
      setDownload(byId(`download-${name}`), undefined, document.getElementById(`${name}-bytes`) ?? undefined);
    for (const name of PARQUET_TABLES)
      clearLazyDownload(byId(`download-${name}-parquet`), byId(`${name}-parquet-bytes`));
    this.inspector.clear();
  }

  async show(summary: RunSummary, downloads: Downloads): Promise<void> {
    showOverview(this.section, summary, downloads);
    showNotes(summary);
    showTimings(summary);
    showDownloads(downloads, summary.plots, (table) => this.makeParquet(table));
    await this.inspector.load(
      summary.inspector.clusters,
      summary.inspector.contaminated,
      summary.settings.verify === 'exact',
    );
    this.section.hidden = false;
  }
}

/** The backend, the settings, the counts and what the run did. */
function showOverview(section: HTMLElement, summary: RunSummary, downloads: Downloads): void {
  const backendLine = byId('backend');
  backendLine.textContent = `Signed with ${summary.backend}.`;
  backendLine.dataset.backendKind = summary.backendKind; // for tests and styling
  const noteLine = byId('backend-note');
  noteLine.hidden = summary.backendNote === undefined;
  noteLine.textContent = forThisPage(summary.backendNote ?? '');
  byId('settings-used').textContent = describeSettings(summary);

  const { counts } = summary;
  for (const element of section.querySelectorAll<HTMLElement>('[data-stat]')) {
    const key = element.dataset.stat as keyof typeof counts;
    element.textContent = int(counts[key]);
  }
  byId('contamination-item').hidden = downloads.contamination === undefined;
  byId('run-details').textContent =
    `${plural(counts.documents, 'document')} ${counts.documents === 1 ? 'holds' : 'hold'} ` +
    `${plural(summary.distinctTexts, 'distinct non-empty text')} (the rest are exact duplicates or empty). ` +
    `“Near-duplicate clusters” counts clusters of two or more distinct texts; the table below also lists clusters ` +
    `of exact duplicates only. ` +
    `${plural(summary.candidates, 'candidate pair')} from banding, ${int(summary.verified)} verified; largest ` +
    `bucket ${int(summary.largestBucket)}; ` +
    `${plural(summary.shingles, 'shingle')} signed.` +
    (summary.splitOff > 0 ? ` The representative check split off ${plural(summary.splitOff, 'text')}.` : '');
}

/** What the run skipped or left out, one line each. */
function showNotes(summary: RunSummary): void {
  const skipped = byId('skipped');
  const dropped = summary.inspector.textsDropped;
  const notes = [
    ...summary.skippedFiles,
    ...(summary.invalidSkipped > 0
      ? [`${plural(summary.invalidSkipped, 'malformed line')} skipped, e.g. ${summary.invalidExamples[0]}`]
      : []),
    ...(summary.missingKeepField > 0
      ? [`${plural(summary.missingKeepField, 'document')} had no numeric value for the keep field (ranked last).`]
      : []),
    ...(dropped > 0
      ? [
          `${plural(dropped, 'clustered document')} ${dropped === 1 ? 'is' : 'are'} listed without ` +
            `${dropped === 1 ? 'its' : 'their'} text (the inspector's memory budget).`,
        ]
      : []),
  ].map(forThisPage);
  skipped.replaceChildren(...notes.map(noteItem));
  skipped.hidden = notes.length === 0;
}

/** Seconds per stage, and their total. */
function showTimings(summary: RunSummary): void {
  const timingRows = byId<HTMLTableElement>('timings').tBodies[0];
  const shown = summary.timings.map((t) => ({
    ...t,
    stage: t.stage === 'exact pre-pass' ? 'reading + exact pre-pass' : t.stage,
  }));
  timingRows.replaceChildren(
    ...shown.map((t) => row([t.stage, formatSeconds(t.ms)], ['Stage', 'Seconds'], [false, true])),
  );
  const total = row(
    ['total', formatSeconds(summary.timings.reduce((sum, t) => sum + t.ms, 0))],
    ['Stage', 'Seconds'],
    [false, true],
  );
  total.classList.add('total');
  timingRows.append(total);
}

/** The download links: files made by the run, Parquet tables made by the worker when followed, and the plots. */
function showDownloads(
  downloads: Downloads,
  plots: RunSummary['plots'],
  makeParquet: (table: ParquetTable) => Promise<Blob>,
): void {
  setDownload(byId('download-kept'), downloads.kept, byId('kept-bytes'));
  setDownload(byId('download-clusters'), downloads.clusters, byId('clusters-bytes'));
  setDownload(byId('download-pairs'), downloads.pairs, byId('pairs-bytes'));
  setDownload(byId('download-contamination'), downloads.contamination, byId('contamination-bytes'));
  for (const name of PARQUET_TABLES) {
    const [link, bytes] = [byId<HTMLAnchorElement>(`download-${name}-parquet`), byId(`${name}-parquet-bytes`)];
    if (name === 'contamination' && downloads.contamination === undefined) clearLazyDownload(link, bytes);
    else setLazyDownload(link, () => makeParquet(name), bytes);
  }
  setDownload(byId('download-report'), downloads.report, byId('report-bytes'));
  setDownload(byId('download-report-html'), downloads.reportHtml, byId('report-html-bytes'));
  setDownload(byId('download-signatures'), downloads.signatures, byId('signatures-bytes'));
  const { curve, histogram } = plots;
  showSvg(byId('run-s-curve'), curve);
  showSvg(byId('histogram'), histogram);
  setDownload(byId('download-s-curve'), new Blob([curve], { type: 'image/svg+xml' }));
  setDownload(byId('download-histogram'), new Blob([histogram], { type: 'image/svg+xml' }));
}

function describeSettings(summary: RunSummary): string {
  const s = summary.settings;
  const p = summary.params;
  const normalization =
    [p.normalize.nfkc ? 'NFKC' : '', p.normalize.stripPunctuation ? 'punctuation stripped' : '']
      .filter(Boolean)
      .join(', ') || 'lowercase only';
  return (
    `Settings: threshold ${s.threshold}; ${summary.lsh.bands} bands × ${summary.lsh.rows} rows ` +
    `${s.scheme === 'simhash' ? `(max Hamming distance ${s.maxHamming})` : s.manualLsh ? '(as given)' : '(chosen for the threshold)'}; ` +
    `scheme ${s.scheme}, k ${p.k}, seed ${p.seed}, ${p.shingle} ${p.n}-grams, ${normalization}` +
    `${s.weights === 'none' ? '' : `, weights ${s.weights}`}; verify ${s.verify}; ` +
    `cluster check ${s.clusterCheck}; keep ${describeKeepPolicy(s.keep)}` +
    (summary.referenceDocuments > 0 ? `; against ${plural(summary.referenceDocuments, 'reference document')}` : '') +
    (s.skipInvalid ? '; malformed lines skipped' : '') +
    '.'
  );
}
