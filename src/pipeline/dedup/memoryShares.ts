/**
 * The dedup run's memory (--memory-limit): the shares its shingle sets and signed rows get, and where each goes past
 * its share.
 */
import { tmpdir } from 'node:os';
import type { RowSpill } from '../../bands/rowStore.js';
import type { SignedDedup, StageRunner } from '../../dedup/dedupSigned.js';
import { collectGarbage } from '../../workers/collect.js';
import type { CorpusPassResult } from '../shared/corpusPass.js';
import type { DedupConfig, DedupHooks } from '../shared/config.js';
import { formatBytes, memoryPlan, rowSpill } from './rowSpill.js';
import { FileSetSpool } from './setSpill.js';

/** What the memory shares read of a run (dedup.ts's Run). */
export interface RunMemory {
  readonly config: DedupConfig;
  readonly hooks: DedupHooks;
  /** --memory-limit, or its default: shared out by rowSpill.ts's memoryPlan. */
  readonly memoryLimitBytes: number;
}

export function overBudgetWarning(core: SignedDedup, budgetBytes: number): string {
  const { overBudget } = core.shingleSets;
  return (
    `warning: the shingle sets of ${overBudget.toLocaleString('en-US')} texts passed their share ` +
    `(${formatBytes(budgetBytes)}) of --memory-limit: ` +
    `${core.verified.decided.estimatePastMemoryLimit.toLocaleString('en-US')} candidate pairs and ` +
    `${core.clustering.checkDecided.estimatePastMemoryLimit.toLocaleString('en-US')} ` +
    'cluster-check comparisons were decided by the signature estimate instead of exact Jaccard ' +
    '(raise --memory-limit for exact decisions, or choose --verify estimate)'
  );
}

/**
 * The signing pass keeps every group's shingle set: in memory up to their share of the limit, then in a temporary file
 * (setSpill.ts).
 */
export function setSpool(run: RunMemory): FileSetSpool {
  const { config, hooks, memoryLimitBytes } = run;
  const dir = config.tempDirectory ?? tmpdir();
  const share = setShare(run);
  return new FileSetSpool(dir, share, () =>
    hooks.note(
      `shingle sets passed their share of --memory-limit ${formatBytes(memoryLimitBytes)} (${formatBytes(share)}): ` +
        `spilling them to ${dir}`,
    ),
  );
}

/** The shingle sets' share of the limit (a test may give them more, to spill rows alone). */
function setShare(run: RunMemory): number {
  return run.config.shingleSetBytes ?? memoryPlan(run.memoryLimitBytes).shingleSets;
}

/**
 * Sets loaded by one more pass over the files (presigned rows: no first-pass spool, whose sets are read where
 * they lie instead) share the sets' room with the per-document tables kept for the outputs.
 */
export function loadedSetShare(run: RunMemory, first: CorpusPassResult): number {
  return Math.max(0, setShare(run) - first.table.bytes - (first.records?.bytes ?? 0));
}

/** Past their share of the memory limit, the signed rows go to a temporary file (rowSpill.ts). */
export function signatureSpill(run: RunMemory): RowSpill {
  const { config, hooks, memoryLimitBytes } = run;
  const dir = config.tempDirectory ?? tmpdir();
  const { k, slotBits, bandKeys } = config.params;
  return {
    limitBytes: memoryPlan(memoryLimitBytes).rowsInMemory,
    open: () => {
      hooks.note(
        `signatures passed their share of --memory-limit ${formatBytes(memoryLimitBytes)} ` +
          `(${formatBytes(memoryPlan(memoryLimitBytes).rowsInMemory)}): spilling them to ${dir}`,
      );
      return rowSpill({ dir, memoryLimitBytes, note: (m) => hooks.note(m) }, k, slotBits, bandKeys);
    },
  };
}

/**
 * Each stage after the first pass begins by collecting what the stages before it dropped, on this thread and on the
 * stage workers (src/workers/collect.ts): the first pass's tables and the sets moved to their file, the band keys
 * once banded, the workers' blocks of rows. Left to the collector, about 0.25 GiB of them were still resident when a
 * 1 M run loaded its candidates' rows and verified, its peak.
 */
export function collectingStages(stage: StageRunner, workers?: { collect(): Promise<void> }): StageRunner {
  return (name, work, total) =>
    stage(
      name,
      async (progress) => {
        const collecting = workers?.collect();
        collectGarbage();
        await collecting;
        return work(progress);
      },
      total,
    );
}
