/**
 * `cluster` on shards with text ranges and no lists (shard format v3): what the exact pass needs, and what it refuses.
 */
import type { ShardMeta } from '../../formats/shards/shardFile.js';
import { changedTextFile, textPairDecider, type TextPairDecider, type TextWork } from '../../engines/textPairs.js';
import { textWorkInWorkers } from '../../engines/textWorkers.js';
import type { EngineOptions } from '../../engines/engine.js';
import { StepLog } from '../../engines/stepPeak.js';
import { shingleOptionsOf } from '../../signatures/params.js';
import type { VerifyMode } from '../../options.js';

/**
 * Shards with text ranges, no lists: the exact pass reads the texts again, on DuckDB, from the files as they were
 * signed; Spark and `--against` need the lists.
 */
export function checkTextRanges(
  config: { readonly shards: readonly string[]; readonly engine?: string; readonly against?: readonly string[] },
  meta: ShardMeta,
  verify: VerifyMode,
): void {
  const resign = `sign the shards with --shard-lists, or cluster with --verify estimate --cluster-check none`;
  const what = `${config.shards[0]} stores where each text lies, not its shingle list`;
  if (config.engine === 'spark')
    throw new RangeError(`--verify ${verify} on Spark needs the shingle lists, and ${what}: ${resign} (or on DuckDB)`);
  if (config.against !== undefined && config.against.length > 0)
    throw new RangeError(`--against needs the shingle lists, and ${what}: ${resign}`);
  const changed = changedTextFile(meta.texts!);
  if (changed !== undefined)
    throw new RangeError(`${changed}: the exact pass reads the margin documents' texts from it; ${resign}`);
}

/**
 * The decider of the plan's host steps: the texts read again and shingled as they were signed, on `--threads` workers,
 * at most `budgetBytes` of their sets in memory (the rest in files under `--temp-directory`, said once in a note).
 */
export function textDecider(
  meta: ShardMeta,
  options: Pick<EngineOptions, 'tempDirectory' | 'onNote' | 'steps'> & { readonly threads: number },
  budgetBytes = Infinity,
): { decide: TextPairDecider; held: () => number; close: () => void; steps: StepLog } {
  const source = {
    texts: meta.texts!,
    shingle: shingleOptionsOf(meta.params),
    read: { textField: meta.read?.textField ?? 'text', idField: meta.read?.idField ?? 'id' },
  };
  const memory = {
    budgetBytes,
    tempDirectory: options.tempDirectory,
    onSpill: (budget: number, dir: string) =>
      options.onNote?.(
        `the exact pass's shingle sets passed their share of --memory-limit (${Math.round(budget / 2 ** 20)} MiB): ` +
          `the rest go to ${dir}`,
      ),
  };
  const { work, held, close } = textWorkInWorkers(source, options.threads, memory);
  // Logged as parts of the engine's host step (duckdb.ts): reading and shingling the texts, deciding the pairs.
  const steps = options.steps ?? new StepLog();
  const logged: TextWork = {
    shingle: (ranges) => steps.step('sets', () => work.shingle(ranges)),
    decide: (parts, pairs, rule) => steps.step('decide', () => work.decide(parts, pairs, rule)),
  };
  return { decide: textPairDecider(logged), held, close, steps };
}
