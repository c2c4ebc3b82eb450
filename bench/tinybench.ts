/** Reading tinybench results, shared by the benchmarks. */
import type { Bench } from 'tinybench';

/** Mean seconds per iteration of the task named exactly `name`; throws if it did not complete. */
export function meanSeconds(bench: Bench, name: string): number {
  const result = bench.tasks.find((t) => t.name === name)?.result;
  if (!result || !('latency' in result)) throw new Error(`benchmark task "${name}" did not complete`);
  return result.latency.mean / 1000;
}
