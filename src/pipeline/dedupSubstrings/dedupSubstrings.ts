/**
 * `gpudedup dedup --substrings`: the near-duplicate pass as `dedup` runs it,
 * its kept documents written to a registered temporary (the same writer as
 * `dedup -o`), then the passes of `substrings` on that file alone, which
 * write `-o` (and `--spans`). The result is by construction that of `dedup -o
 * K` followed by `substrings K -o OUT`; the kept texts are held in memory
 * once (the substrings search's CorpusText), and the temporary goes on every
 * exit, signals included (formats/files/temporaries.ts).
 */
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { checkKeptOutput } from '../../formats/keptDocuments.js';
import { isParquetOutput } from '../../formats/parquet/parquetFile.js';
import { removeTemporary, reserveTemporary } from '../../formats/files/temporaries.js';
import { listInputFiles } from '../../io/readDocuments.js';
import { SILENT_HOOKS, type DedupConfig, type DedupHooks } from '../shared/config.js';
import { writeReport, type DedupReport } from '../shared/report.js';
import { dedupPreflight } from '../dedup/preflight.js';
import { dedupJob, namedOutputs, type DedupOutputs } from '../dedup/dedupJob.js';
import type { DedupOutcome } from '../dedup/dedup.js';
import { substringsOf } from '../substrings/run.js';
import type { SubstringsConfig, SubstringsReport } from '../substrings/config.js';

/** The search on the kept documents: `substrings`' settings but its inputs, -o, report and checkpoint. */
export type KeptSubstrings = Omit<
  SubstringsConfig,
  'inputs' | 'read' | 'out' | 'report' | 'resume' | 'checkpointSeconds' | 'checkpoint'
>;

/** The substrings report's counts, without what names the temporary it read. */
export type SubstringsSection = Omit<SubstringsReport, 'format' | 'inputs'>;

export type DedupSubstringsReport = DedupReport & { readonly substrings: SubstringsSection };

export async function dedupSubstringsJob(
  config: DedupConfig,
  outputs: DedupOutputs & { readonly out: string },
  substrings: KeptSubstrings,
  hooks: DedupHooks = SILENT_HOOKS,
): Promise<{ outcome: DedupOutcome; report: DedupSubstringsReport }> {
  if (outputs.dryRun) throw new RangeError('--substrings writes -o: it cannot run with --dry-run');
  const spans = substrings.spans === undefined ? [] : [{ flag: '--spans', path: substrings.spans }];
  // Every output as the user named it, before any work (dedupJob then checks the temporary in -o's place).
  await dedupPreflight(config, [...namedOutputs(outputs), ...spans], outputs.plots);
  await checkKeptOutput(outputs.out, await listInputFiles(config.inputs));
  const kept = reserveKept(outputs.out, config.tempDirectory);
  try {
    const { outcome, report } = await dedupJob(config, { ...outputs, out: kept, report: undefined }, hooks);
    const found = await substringsOf(
      await listInputFiles([kept]),
      // No checkpoint: it would outlive the temporary it describes, and dedup has no --resume.
      { ...substrings, inputs: [kept], read: config.read, out: outputs.out, report: undefined, checkpoint: false },
      hooks,
    );
    const { format: _format, inputs: _inputs, ...section } = found;
    const combined: DedupSubstringsReport = {
      ...report,
      seconds: { ...report.seconds, ...substringsSeconds(found) },
      substrings: section,
    };
    if (outputs.report !== undefined) await writeReport(outputs.report, combined);
    return { outcome, report: combined };
  } finally {
    removeTemporary(kept);
  }
}

/**
 * The kept documents' temporary: in --temp-directory when given, else beside -o (the disk that takes the output;
 * the system's temporary directory for standard output). JSON Lines, uncompressed, or Parquet for a Parquet -o (so
 * that -o gets what `substrings` writes from dedup's Parquet).
 */
function reserveKept(out: string, tempDirectory: string | undefined): string {
  const dir = tempDirectory ?? (out === '-' ? tmpdir() : dirname(out));
  return reserveTemporary(
    join(dir, out === '-' ? 'stdout' : basename(out)),
    isParquetOutput(out) ? 'kept.parquet' : 'kept.jsonl',
  );
}

/** The search's stages among dedup's, in seconds as the report gives them. */
function substringsSeconds(found: SubstringsReport): Record<string, number> {
  return Object.fromEntries(
    Object.entries(found.timings).map(([stage, s]) => [`substrings ${stage}`, Number(s.toFixed(3))]),
  );
}
