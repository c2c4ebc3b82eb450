/** Spark runs in CI (.ci/run installs it: scripts/install-spark.sh) and with GPUDEDUP_SPARK=1; there a missing pyspark fails. */
import { execFileSync } from 'node:child_process';

export function sparkWanted(): boolean {
  if (process.env.GPUDEDUP_SPARK !== '1' && !process.env.CI) return false;
  execFileSync('python3', ['-c', 'import pyspark']);
  return true;
}
