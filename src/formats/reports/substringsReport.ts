/**
 * What `gpudedup substrings --report` writes (and the tab's report), and its
 * page (`--report-html`): the counts, the search's rounds and timings, and
 * the most repeated spans with a preview, first id and offset. The page is
 * htmlReport.ts's (same style, no script, no request); every number carries
 * `data-field` and `data-value` as there. Pure and browser-safe.
 */
import type { CutMode } from '../../options.js';
import type { SearchStats } from '../../substrings/searchRepeats.js';
import type { NamedTopSpan } from '../../substrings/topSpans.js';
import { escapeHtml, field, reportPage, row, userText } from './htmlReport.js';
import { counted } from '../../format.js';

export interface SubstringsReport {
  readonly format: 'gpudedup-substrings-report-1';
  readonly inputs: readonly string[];
  /** The shortest span: minLength bytes, or minTokens normalized tokens (then minLength is absent). */
  readonly minLength?: number;
  readonly minTokens?: number;
  readonly cut: CutMode;
  readonly minRemaining: number;
  readonly documents: number;
  /** Malformed lines skipped under --skip-invalid. */
  readonly invalidSkipped?: number;
  /** Binary files skipped, by path (by name in the tab). */
  readonly binarySkipped?: readonly string[];
  readonly textBytes: number;
  /** Documents with at least one span. */
  readonly documentsTouched: number;
  /** Documents dropped: left under minRemaining bytes, or with no token. */
  readonly documentsDropped: number;
  readonly spans: number;
  /** Bytes of the spans (as found) and bytes removed (whole characters inside them). */
  readonly spanBytes: number;
  readonly bytesCut: number;
  readonly search: SearchStats & { readonly resumedRounds: number };
  readonly topSpans: readonly NamedTopSpan[];
  readonly seconds: number;
  readonly timings: Record<string, number>;
}

const percent = (part: number, whole: number): string => `${((100 * part) / Math.max(whole, 1)).toFixed(2)} %`;
const seconds = (s: number): string => `${s.toFixed(2)} s`;

/** The search's rows: in bytes (rounds of hashed windows), or in tokens (--min-tokens: doubling passes, no hash). */
function searchRows(r: SubstringsReport): string[] {
  if (r.minTokens !== undefined)
    return [
      row('shortest span (--min-tokens, normalized tokens)', field('minTokens', r.minTokens)),
      row('cut (--cut)', field('cut', r.cut)),
      row('doubling passes (exact window numbers)', field('search.rounds', r.search.rounds)),
      row(`windows of ${r.minTokens} tokens`, field('search.windows', r.search.windows)),
    ];
  return [
    row('shortest span (--min-length, bytes)', field('minLength', r.minLength ?? null)),
    row('cut (--cut)', field('cut', r.cut)),
    row('search rounds', field('search.rounds', r.search.rounds)),
    row('threads of the search (a round a thread at least)', field('search.threads', r.search.threads)),
    row('windows hashed', field('search.windows', r.search.windows)),
    row('hash collisions resolved by bytes', field('search.collisions', r.search.collisions)),
    row('rounds resumed from a checkpoint', field('search.resumedRounds', r.search.resumedRounds)),
  ];
}

function summary(r: SubstringsReport): string {
  const rows = [
    row('documents in', field('documents', r.documents)),
    row('bytes of text (UTF-8)', field('textBytes', r.textBytes)),
    row('documents touched (a span cut)', field('documentsTouched', r.documentsTouched)),
    row(
      `documents dropped (under ${counted(r.minRemaining, 'byte')} or no token left)`,
      field('documentsDropped', r.documentsDropped),
    ),
    row('repeated spans', field('spans', r.spans)),
    row('bytes in the spans', field('spanBytes', r.spanBytes)),
    row(
      'bytes cut',
      field('bytesCut', r.bytesCut, `${r.bytesCut.toLocaleString('en-US')} (${percent(r.bytesCut, r.textBytes)})`),
    ),
    ...searchRows(r),
    row('seconds', field('seconds', r.seconds, seconds(r.seconds))),
    ...Object.entries(r.timings).map(([stage, s]) => row(`time: ${stage}`, field(`timings.${stage}`, s, seconds(s)))),
  ];
  return (
    `<h2>Summary</h2><table>${rows.join('')}</table><p class="note">Inputs: ` +
    `${r.inputs.map(userText).join(', ')}. ${
      r.cut === 'later' ? 'Every occurrence but the first (in input order) is cut.' : 'Every occurrence is cut.'
    }</p>`
  );
}

function topSpans(r: SubstringsReport): string {
  if (r.topSpans.length === 0) return '<h2>Most repeated spans</h2><p class="note">No repeated span.</p>';
  const head =
    '<tr><th scope="col">#</th><th scope="col">occurrences</th><th scope="col">bytes</th>' +
    '<th scope="col">first in</th><th scope="col">at byte</th><th scope="col">text</th></tr>';
  const rows = r.topSpans.map(
    (t, i) =>
      `<tr><th scope="row">${i + 1}</th>` +
      field(`topSpans.${i}.count`, t.count) +
      field(`topSpans.${i}.bytes`, t.bytes) +
      `<td>${userText(t.firstId)}</td>` +
      field(`topSpans.${i}.firstStart`, t.firstStart) +
      `<td class="text">${escapeHtml(t.preview)}</td></tr>`,
  );
  return (
    '<h2>Most repeated spans</h2><p class="note">Spans grouped by their first occurrence and length; the text is ' +
    `the span's first 200 characters; offsets are bytes of the text's UTF-8.</p><table>${head}${rows.join('')}</table>`
  );
}

export function substringsHtmlReport(report: SubstringsReport): string {
  return reportPage(report.inputs, 'gpudedup substrings report', summary(report) + topSpans(report));
}
