/** Spark runs in CI (.ci/run installs it: scripts/install-spark.sh) and with GPUDEDUP_SPARK=1; there a missing pyspark fails. */
import { execFileSync } from 'node:child_process';

export function sparkWanted(): boolean {
  if (process.env.GPUDEDUP_SPARK !== '1' && !process.env.CI) return false;
  execFileSync('python3', ['-c', 'import pyspark']);
  return true;
}

/**
 * Whole-stage code generation off in the local Spark jobs started until the returned function is called (it restores
 * the environment, which the files of a vitest worker share): PySpark passes PYSPARK_SUBMIT_ARGS to the JVM it
 * launches. On the sample's few hundred rows, compiling each stage's generated Java (Janino, in the driver and every
 * executor) costs more than running it: clusterSpark.test.ts took 86.5 CPU-s with it and 64.1 without. It changes no
 * result (the tests compare them all the same) and no plan's operators; clusterSimhash.test.ts's Spark job keeps
 * Spark's defaults, so one job still runs generated code.
 */
export function sparkWithoutCodegen(): () => void {
  const before = process.env.PYSPARK_SUBMIT_ARGS;
  process.env.PYSPARK_SUBMIT_ARGS = `--conf ${SPARK_NO_CODEGEN} pyspark-shell`;
  return () => {
    if (before === undefined) delete process.env.PYSPARK_SUBMIT_ARGS;
    else process.env.PYSPARK_SUBMIT_ARGS = before;
  };
}

/** The setting, for spark-submit's --conf too (sparkStandalone.test.ts). */
export const SPARK_NO_CODEGEN = 'spark.sql.codegen.wholeStage=false';
