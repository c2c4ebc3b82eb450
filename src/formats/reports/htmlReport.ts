/**
 * `--report-html`: one self-contained page to look at a run, with no script
 * and no request (a Content-Security-Policy of `default-src 'none'` says so
 * to the browser): the summary, the S-curve of the bands chosen, the
 * histogram of the verified pairs' similarities, the audit's precision table,
 * and the largest clusters with each removed member's diff against the kept
 * document (compareTexts, as the tab's inspector shows it).
 *
 * Every number shown from the JSON report carries `data-field` (its path in
 * the report, e.g. `audit.precision.share`) and `data-value` (the report's
 * value), so a test, or a reader's tool, checks the page against the report.
 * Pure and browser-safe: the tab builds the same page.
 */
import type { ShownCluster, ShownMember } from '../../clusters/largestClusters.js';
import type { Segment } from '../../shingles/sharedShingles.js';
import type { AuditReport } from './auditReport.js';
import type { DedupReport } from './dedupReport.js';

export type HtmlCluster = ShownCluster;
export type HtmlClusterMember = ShownMember;

/** The report fields the page shows: dedup's report has them, and so has cluster's (clusterReport.ts). */
export interface PageReport
  extends Pick<
    DedupReport,
    | 'inputs'
    | 'backend'
    | 'documents'
    | 'exactDuplicates'
    | 'distinctTexts'
    | 'nearDuplicateClusters'
    | 'contaminated'
    | 'removed'
    | 'kept'
    | 'audit'
  > {
  readonly parameters: Pick<
    DedupReport['parameters'],
    'threshold' | 'bands' | 'rows' | 'verify' | 'clusterCheck' | 'keep'
  >;
  readonly candidates: Pick<DedupReport['candidates'], 'pairs' | 'verified'>;
}

export interface HtmlReportInput {
  /** The page's heading; default "gpudedup dedup report". */
  readonly title?: string;
  readonly report: PageReport;
  readonly sCurveSvg: string;
  readonly histogramSvg: string;
  readonly clusters: readonly HtmlCluster[];
}

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1d1d1f;overflow-wrap:anywhere}
h1{font-size:1.6rem}h2{margin-top:2.2rem;border-bottom:1px solid #ddd}h3{font-size:1.05rem}
table{border-collapse:collapse;margin:.6rem 0}td,th{border:1px solid #ddd;padding:.25rem .55rem;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap;overflow-wrap:normal}th{background:#f4f4f6}
figure{display:inline-block;margin:.5rem 1rem .5rem 0}figcaption{font-size:.85rem;color:#555}
.diff{display:grid;grid-template-columns:1fr 1fr;gap:1rem}.doc{white-space:pre-wrap;font:13px/1.4 ui-monospace,monospace;background:#fafafa;border:1px solid #e3e3e3;padding:.5rem;max-height:24rem;overflow:auto}
mark.shared{background:#cdeccd}span.unshared{background:#fbd9d3}.note{color:#555;font-size:.9rem}
td.text{white-space:pre-wrap;font:13px/1.4 ui-monospace,monospace}
`;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * Text from the user's files (an id, a file name), escaped and isolated: a
 * right-to-left override (U+202E) or an Arabic id stays inside its `<bdi>`
 * and cannot reorder the page's own words after it.
 */
export function userText(text: string): string {
  return `<bdi>${escapeHtml(text)}</bdi>`;
}

/** The same where no markup may go (`<title>`): Unicode's first-strong isolate and its pop (U+2068, U+2069). */
const isolated = (text: string): string => `\u2068${escapeHtml(text)}\u2069`;

/** A number of the JSON report, tagged with its path and value: its cell (or, `tag` span, part of one). */
export function field(
  path: string,
  value: number | string | null,
  shown = value === null ? '–' : typeof value === 'number' ? value.toLocaleString('en-US') : value,
  tag = 'td',
): string {
  return (
    `<${tag} class="n" data-field="${escapeHtml(path)}" ` +
    `data-value="${escapeHtml(String(value))}">${escapeHtml(String(shown))}</${tag}>`
  );
}

const percent = (x: number | null): string => (x === null ? '–' : `${(100 * x).toFixed(2)} %`);

/** A table row: its label, then its cells. */
export function row(label: string, cells: string): string {
  return `<tr><th scope="row">${escapeHtml(label)}</th>${cells}</tr>`;
}

function summary(report: PageReport): string {
  const p = report.parameters;
  const rows = [
    row('documents in', field('documents', report.documents)),
    row('exact duplicates', field('exactDuplicates', report.exactDuplicates)),
    row('distinct texts signed', field('distinctTexts', report.distinctTexts)),
    row('near-duplicate clusters', field('nearDuplicateClusters', report.nearDuplicateClusters)),
    row('contaminated', field('contaminated', report.contaminated)),
    row('removed', field('removed', report.removed)),
    row('kept', field('kept', report.kept)),
    row('threshold', field('parameters.threshold', p.threshold)),
    row(
      'bands × rows',
      `<td class="n">${field('parameters.bands', p.bands, undefined, 'span')} × ` +
        `${field('parameters.rows', p.rows, undefined, 'span')}</td>`,
    ),
    row('verification', field('parameters.verify', p.verify)),
    row('cluster check', field('parameters.clusterCheck', p.clusterCheck)),
    row('keep', field('parameters.keep', p.keep)),
    row('candidate pairs', field('candidates.pairs', report.candidates.pairs)),
    row('verified pairs', field('candidates.verified', report.candidates.verified)),
  ];
  return (
    `<h2>Summary</h2><table>${rows.join('')}</table><p class="note">Inputs: ` +
    `${report.inputs.map(userText).join(', ')}. Backend: ${escapeHtml(report.backend)}.</p>`
  );
}

function plots(sCurveSvg: string, histogramSvg: string): string {
  return (
    '<h2>Banding and similarities</h2>' +
    `<figure>${sCurveSvg}<figcaption>The S-curve of the bands chosen: the chance a pair becomes a candidate, by its ` +
    `Jaccard similarity.</figcaption></figure>` +
    `<figure>${histogramSvg}<figcaption>The similarities of the verified pairs.</figcaption></figure>`
  );
}

function shareCells(path: string, p: { share: number | null; low: number | null; high: number | null }): string {
  return (
    field(`${path}.share`, p.share, percent(p.share)) +
    field(`${path}.low`, p.low, percent(p.low)) +
    field(`${path}.high`, p.high, percent(p.high))
  );
}

function audit(a: AuditReport | null): string {
  if (a === null)
    return '<h2>Audit</h2><p class="note">No audit in this run (--audit N measures a sample by exact Jaccard).</p>';
  const head =
    '<tr><th>estimated similarity</th><th>accepted pairs</th><th>sampled</th><th>J ≥ t</th><th>precision</th><th>95 % ' +
    'low</th><th>95 % high</th></tr>';
  const bins = a.bins.map(
    (b, i) =>
      `<tr><th scope="row">${b.from.toFixed(1)}–${b.to.toFixed(1)}</th>` +
      field(`audit.bins.${i}.pairs`, b.pairs) +
      field(`audit.bins.${i}.sampled`, b.sampled) +
      field(`audit.bins.${i}.count`, b.count) +
      shareCells(`audit.bins.${i}`, b) +
      '</tr>',
  );
  const p = a.precision;
  const overall =
    '<tr><th scope="row">all (weighted by pairs)</th>' +
    field('audit.precision.pairs', p.pairs) +
    field('audit.precision.sampled', p.sampled) +
    '<td></td>' +
    shareCells('audit.precision', p) +
    '</tr>';
  const r = a.removed;
  const removedRows = [
    ['below t − δ', 'belowChainThreshold', a.chainThreshold],
    ['below t', 'belowThreshold', a.threshold],
  ].map(([label, key, limit]) => {
    const s = r[key as 'belowChainThreshold' | 'belowThreshold'];
    return (
      `<tr><th scope="row">${escapeHtml(String(label))} (J &lt; ${limit})</th>` +
      field(`audit.removed.${key}.sampled`, s.sampled) +
      field(`audit.removed.${key}.count`, s.count) +
      shareCells(`audit.removed.${key}`, s) +
      '</tr>'
    );
  });
  return (
    `<h2>Audit</h2><p class="note">A seeded sample (seed ${escapeHtml(a.seed)}) of up to ${a.perBin} accepted pairs ` +
    `per bin and ${a.perBin} removed documents, ` +
    `measured by exact Jaccard. Precision: the share of sampled accepted pairs with exact J ≥ t = ${a.threshold}. ` +
    `Intervals: 95 % Wilson score.</p>` +
    `<table>${head}${bins.join('')}${overall}</table>` +
    `<table><tr><th>removed documents (of ${r.population.toLocaleString('en-US')} near-duplicate ` +
    `removals)</th><th>sampled</th><th>count</th><th>share</th><th>95 % low</th><th>95 % ` +
    `high</th></tr>${removedRows.join('')}</table>`
  );
}

function segmentsHtml(segments: readonly Segment[]): string {
  return segments
    .map((s) =>
      s.shared
        ? `<mark class="shared">${escapeHtml(s.text)}</mark>`
        : `<span class="unshared">${escapeHtml(s.text)}</span>`,
    )
    .join('');
}

function member(m: HtmlClusterMember, keptId: string): string {
  if (m.exactDuplicate) return `<li>${userText(m.id)}: exact duplicate of the kept text</li>`;
  if (m.comparison === undefined) return `<li>${userText(m.id)}: text not at hand</li>`;
  const c = m.comparison;
  return (
    `<li><details><summary>${userText(m.id)}: exact Jaccard ${c.exact.toFixed(3)} ` +
    `(${c.sharedShingles.toLocaleString('en-US')} shared shingles of ${c.keptShingles.toLocaleString('en-US')} and ` +
    `${c.removedShingles.toLocaleString('en-US')})</summary>` +
    `<div class="diff"><div><h4>Kept: ${userText(keptId)}</h4><div class="doc">${segmentsHtml(c.kept)}</div></div>` +
    `<div><h4>Removed: ${userText(m.id)}</h4><div ` +
    `class="doc">${segmentsHtml(c.removed)}</div></div></div></details></li>`
  );
}

function clusters(list: readonly HtmlCluster[]): string {
  if (list.length === 0) return '<h2>Largest clusters</h2><p class="note">No near-duplicate clusters.</p>';
  const sections = list.map(
    (c) =>
      `<section><h3>Cluster ${c.cluster}: ${c.size.toLocaleString('en-US')} documents, “${userText(c.keptId)}” kept</h3>` +
      `<ul>${c.members.map((m) => member(m, c.keptId)).join('')}</ul>` +
      (c.size - 1 > c.members.length
        ? `<p class="note">and ${(c.size - 1 - c.members.length).toLocaleString('en-US')} more removed</p>`
        : '') +
      '</section>',
  );
  return (
    `<h2>Largest clusters</h2><p class="note">Shingles the other document shares are <mark ` +
    `class="shared">marked</mark>; the others <span class="unshared">shaded</span>. Open a member to see the two ` +
    `texts.</p>${sections.join('')}`
  );
}

export function htmlReport(input: HtmlReportInput): string {
  const { report } = input;
  return reportPage(
    report.inputs,
    input.title ?? 'gpudedup dedup report',
    summary(report) + plots(input.sCurveSvg, input.histogramSvg) + audit(report.audit) + clusters(input.clusters),
  );
}

/**
 * A report page around its body: no script and no request (the Content-Security-Policy), the inputs in the title
 * (isolated), the heading, the style every report page shares.
 */
export function reportPage(inputs: readonly string[], heading: string, body: string): string {
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">` +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<title>gpudedup report: ` +
    `${inputs.length === 0 ? 'run' : inputs.map(isolated).join(', ')}</title><style>${STYLE}</style></head><body>` +
    `<h1>${escapeHtml(heading)}</h1>` +
    body +
    '</body></html>\n'
  );
}
