/** Writes the dedup report (src/formats/dedupReport.ts) atomically. */
import { AtomicFile } from '../formats/atomicFile.js';
import type { DedupReport } from '../formats/dedupReport.js';

export { buildReport, formatSummary, namesOf, REPORT_FORMAT, type DedupReport } from '../formats/dedupReport.js';

export async function writeReport(path: string, report: DedupReport): Promise<void> {
  const file = await AtomicFile.create(path);
  try {
    await file.write(JSON.stringify(report, null, 2) + '\n');
    await file.commit();
  } catch (error) {
    await file.abort();
    throw error;
  }
}
