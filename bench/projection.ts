/**
 * End-to-end throughput at more cores, projected from one dedup run's report (`--report`, its per-stage CPU seconds
 * of the main thread and of the other threads) by the model `gpudedup bench` uses (src/pipeline/bench/endToEnd.ts):
 * each stage takes at least its main thread's CPU time (serial), and at least all its CPU time spread over the
 * cores; the sum over the stages is the run.
 *
 *   node dist/bench/projection.js REPORT.json [CORES ...]     (default 2 16 64)
 *
 * A model, not a measurement: it assumes the workers' share scales with cores and that memory bandwidth and the
 * disk keep up (it names the stage that bounds each projection, and whether its main thread is the bound).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { projectRun, type StageCpuSeconds } from '../src/pipeline/bench/endToEnd.js';

/** Bytes of the report's inputs: files, and the files directly in a directory (dedup reads those in name order). */
function inputBytes(paths: readonly string[]): number {
  let total = 0;
  for (const path of paths) {
    const files = statSync(path).isDirectory() ? readdirSync(path).map((name) => join(path, name)) : [path];
    for (const file of files) if (statSync(file).isFile()) total += statSync(file).size;
  }
  return total;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [path, ...coreArgs] = process.argv.slice(2);
  if (path === undefined) {
    console.error('usage: node dist/bench/projection.js REPORT.json [CORES ...]');
    process.exit(2);
  }
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const cpu = report.cpuSeconds as Record<string, StageCpuSeconds>;
  if (cpu === undefined || Object.keys(cpu).length === 0) {
    console.error(`${path}: no cpuSeconds (a report of this version, on Linux, has them)`);
    process.exit(1);
  }
  const bytes = inputBytes(report.inputs as string[]);
  const documents = report.documents as number;
  console.log('| cores | seconds | documents/s | MB/s | bound |');
  console.log('| ---: | ---: | ---: | ---: | --- |');
  const cores = (coreArgs.length > 0 ? coreArgs : ['2', '16', '64']).map(Number);
  for (const p of projectRun(cpu, documents, bytes, cores)) {
    const bound = `${p.bound.stage}${p.bound.serial ? ' (main thread: serial)' : ' (all threads)'}`;
    console.log(
      `| ${p.cores} | ${p.seconds.toFixed(1)} | ${Math.round(p.documentsPerSecond).toLocaleString('en-US')} | ` +
        `${p.mbPerSecond.toFixed(0)} | ${bound} |`,
    );
  }
}
