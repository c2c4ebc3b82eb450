/** Writes the dedup report (src/formats/reports/dedupReport.ts) atomically (`-`: standard output). */
import type { DedupReport } from '../../formats/reports/dedupReport.js';
import { writeTextFile } from '../../formats/files/textFile.js';

export {
  buildReport,
  formatSummary,
  namesOf,
  REPORT_FORMAT,
  type DedupReport,
} from '../../formats/reports/dedupReport.js';

export function writeReport(path: string, report: DedupReport): Promise<void> {
  return writeTextFile(path, JSON.stringify(report, null, 2) + '\n');
}
