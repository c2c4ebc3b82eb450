/** Writes the dedup report (src/formats/dedupReport.ts) atomically (`-`: standard output). */
import type { DedupReport } from '../formats/dedupReport.js';
import { writeTextFile } from '../formats/textFile.js';

export { buildReport, formatSummary, namesOf, REPORT_FORMAT, type DedupReport } from '../formats/dedupReport.js';

export function writeReport(path: string, report: DedupReport): Promise<void> {
  return writeTextFile(path, JSON.stringify(report, null, 2) + '\n');
}
