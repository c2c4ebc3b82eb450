/**
 * The `index add` summary: the JSON report (`--report`) and the lines printed
 * at the end of a run. Pure, like dedupReport.ts.
 */
import { counted, namesOf, thousands } from '../format.js';
import type { AddResult, IndexStats } from './types.js';

export const INDEX_ADD_REPORT_FORMAT = 'gpudedup-index-add-report';

export interface IndexAddFacts {
  readonly index: string;
  readonly inputs: readonly string[];
  /** `--all`: every document appended, matches only reported. */
  readonly all: boolean;
  readonly result: AddResult;
  /** The index after the add's commit. */
  readonly stats: IndexStats;
  readonly invalidSkipped: number;
  readonly binarySkipped: readonly string[];
  /** Milliseconds per stage: reading, adding (signing, deciding, committing), writing. */
  readonly timings: Readonly<Record<string, number>>;
}

export function buildIndexAddReport(facts: IndexAddFacts) {
  const { result, stats } = facts;
  const documents = result.decisions.length;
  let matchRows = 0;
  let matchedAndAdded = 0;
  for (const d of result.decisions) {
    matchRows += d.matches.length;
    if (d.added && d.matches.length > 0) matchedAndAdded++;
  }
  return {
    format: INDEX_ADD_REPORT_FORMAT,
    version: 1,
    index: facts.index,
    inputs: facts.inputs,
    all: facts.all,
    documents,
    added: result.added,
    /** Documents with at least one match (with --all, added all the same). */
    matched: result.matched,
    /** Documents left out: documents − added (0 with --all). */
    skipped: documents - result.added,
    matchedAndAdded,
    /** Rows of --matches: one per (document, indexed or earlier document it matched). */
    matches: matchRows,
    invalidSkipped: facts.invalidSkipped,
    binarySkipped: facts.binarySkipped,
    indexAfter: {
      documents: stats.documents,
      removed: stats.removed,
      segments: stats.segments,
      bytesOnDisk: stats.bytesOnDisk,
    },
    parameters: stats.parameters,
    seconds: Object.fromEntries(
      Object.entries(facts.timings).map(([stage, ms]) => [stage, Number((ms / 1000).toFixed(3))]),
    ),
  };
}

export type IndexAddReport = ReturnType<typeof buildIndexAddReport>;

export function formatIndexAddSummary(report: IndexAddReport, destination: string): string {
  const int = thousands;
  const total = Object.values(report.seconds).reduce((s, x) => s + x, 0);
  const stages = Object.entries(report.seconds)
    .map(([stage, s]) => `${stage} ${s.toFixed(2)}`)
    .join(', ');
  const after = report.indexAfter;
  const lines = [
    `indexed ${counted(report.documents, 'document')} into ` +
      `${report.index}${destination === '' ? '' : ` → ${destination}`}`,
    `  documents in        ${int(report.documents)}`,
    `  added               ${int(report.added)}` + (report.all ? ' (--all: every document)' : ''),
    `  matched             ${int(report.matched)} (exact or near-duplicates of indexed documents or of earlier ones in this run)` +
      (report.all ? '' : `, not added`),
    `  match rows          ${int(report.matches)}`,
    `  index now           ${counted(after.documents, 'document')} in ${counted(after.segments, 'segment')}, ` +
      `${(after.bytesOnDisk / 1e6).toFixed(1)} MB` +
      (after.removed > 0 ? ` (${int(after.removed)} removed, not yet compacted)` : ''),
    `  parameters          ${describeParameters(report.parameters)}`,
    ...(report.invalidSkipped > 0
      ? [`  skipped             ${counted(report.invalidSkipped, 'invalid line')} (--skip-invalid)`]
      : []),
    ...(report.binarySkipped.length > 0
      ? [
          `  skipped             ${counted(report.binarySkipped.length, 'binary file')} ` +
            `(${namesOf(report.binarySkipped)})`,
        ]
      : []),
    `  time                ${total.toFixed(2)} s (${stages})`,
  ];
  return lines.join('\n') + '\n';
}

/** The index's parameters in one line: threshold, banding, verification, signature. */
export function describeParameters(p: Readonly<Record<string, unknown>>): string {
  const lsh = (p.lsh ?? p) as { bands?: unknown; rows?: unknown };
  const parts = [
    `threshold ${String(p.threshold)}${p.maxHamming !== undefined ? ` (Hamming ≤ ${String(p.maxHamming)})` : ''}`,
    lsh.bands !== undefined ? `${String(lsh.bands)} bands × ${String(lsh.rows)} rows` : undefined,
    p.verify !== undefined ? `verify ${String(p.verify)}` : undefined,
    `k ${String(p.k)}`,
    p.scheme !== undefined ? `scheme ${String(p.scheme)}` : undefined,
    p.shingle !== undefined ? `${String(p.shingle)} ${String(p.n)}-grams` : undefined,
  ];
  return parts.filter((x) => x !== undefined).join(', ');
}
