/** n-gram decontamination's counts per benchmark (reference file), its summary lines and its `--report` JSON. */
import { BufferedFile } from '../../formats/files/tableWriter.js';
import { counted } from '../../format.js';
import type { BenchmarkCount, DecontaminateConfig, DecontaminateSummary, ReferenceSet } from './contaminationConfig.js';

/** How many reference documents each file holds. */
export function referencesPerFile(set: ReferenceSet): number[] {
  const counts = set.files.map(() => 0);
  for (const file of set.benchmarkOf) counts[file]++;
  return counts;
}

export function benchmarkCounts(set: ReferenceSet): BenchmarkCount[] {
  const references = referencesPerFile(set);
  return set.files.map((file, i) => ({
    file,
    references: references[i],
    documents: 0,
    spans: 0,
    referencesFound: new Set<number>(),
  }));
}

/** The summary's lines after the run (the CLI prints them). */
export function contaminationLines(
  summary: DecontaminateSummary,
  config: Pick<DecontaminateConfig, 'minTokens' | 'action'>,
): string[] {
  const lines = [
    `${counted(summary.contaminated, 'document')} of ${summary.documents} share a span of ` +
      `${config.minTokens} or more tokens with ` +
      `${counted(summary.referenceDocuments, 'reference document')}: ${counted(summary.spans, 'span')}; ` +
      `${summary.removed} removed, ${summary.cut} cut (${summary.bytesCut} bytes) in ${summary.seconds.toFixed(2)} s`,
  ];
  for (const b of summary.benchmarks) {
    lines.push(
      `  ${b.file}: ${counted(b.documents, 'document')}, ${counted(b.spans, 'span')}, ` +
        `${b.referencesFound.size} of ${b.references} references found`,
    );
  }
  return lines;
}

/** The summary as one JSON object, counts per benchmark included. */
export function contaminationJson(
  summary: DecontaminateSummary,
  config: Pick<DecontaminateConfig, 'minTokens' | 'action'>,
): object {
  return {
    format: 'gpudedup-contamination-report-1',
    minTokens: config.minTokens,
    action: config.action,
    documents: summary.documents,
    contaminated: summary.contaminated,
    removed: summary.removed,
    cut: summary.cut,
    bytesCut: summary.bytesCut,
    spans: summary.spans,
    referenceDocuments: summary.referenceDocuments,
    invalidSkipped: summary.invalidSkipped,
    binarySkipped: summary.binarySkipped,
    seconds: summary.seconds,
    benchmarks: summary.benchmarks.map((b) => ({
      file: b.file,
      references: b.references,
      referencesFound: b.referencesFound.size,
      documents: b.documents,
      spans: b.spans,
    })),
  };
}

export async function writeContaminationReport(
  path: string,
  config: DecontaminateConfig,
  summary: DecontaminateSummary,
): Promise<void> {
  const file = await BufferedFile.create(path);
  try {
    await file.write(`${JSON.stringify(contaminationJson(summary, config), null, 2)}\n`);
    await file.commit();
  } catch (error) {
    await file.abort();
    throw error;
  }
}
