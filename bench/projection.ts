/**
 * End-to-end throughput at more cores, projected from one dedup run's report (`--report`, its per-stage CPU seconds
 * of the main thread and of the other threads): each stage takes at least its main thread's CPU time (serial), and
 * at least all its CPU time spread over the cores; the sum over the stages is the run.
 *
 *   node dist/bench/projection.js REPORT.json [CORES ...]     (default 2 16 64)
 *
 * A model, not a measurement: it assumes the workers' share scales with cores and that memory bandwidth and the
 * disk keep up (it names the stage that bounds each projection, and whether its main thread is the bound).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface StageCpu {
  readonly main: number;
  readonly other: number;
}

export interface Projection {
  readonly cores: number;
  readonly seconds: number;
  /** The stage that takes longest at these cores, and whether its main thread (serial) bounds it. */
  readonly bound: { readonly stage: string; readonly serial: boolean };
}

export function project(cpu: Record<string, StageCpu>, cores: number): Projection {
  let seconds = 0;
  let bound = { stage: '', serial: false, seconds: -1 };
  for (const [stage, { main, other }] of Object.entries(cpu)) {
    const spread = (main + other) / cores;
    const t = Math.max(main, spread);
    seconds += t;
    if (t > bound.seconds) bound = { stage, serial: main >= spread, seconds: t };
  }
  return { cores, seconds, bound: { stage: bound.stage, serial: bound.serial } };
}

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
  const cpu = report.cpuSeconds as Record<string, StageCpu>;
  if (cpu === undefined || Object.keys(cpu).length === 0) {
    console.error(`${path}: no cpuSeconds (a report of this version, on Linux, has them)`);
    process.exit(1);
  }
  const bytes = inputBytes(report.inputs as string[]);
  const documents = report.documents as number;
  console.log('| cores | seconds | documents/s | MB/s | bound |');
  console.log('| ---: | ---: | ---: | ---: | --- |');
  for (const cores of (coreArgs.length > 0 ? coreArgs : ['2', '16', '64']).map(Number)) {
    const p = project(cpu, cores);
    const bound = `${p.bound.stage}${p.bound.serial ? ' (main thread: serial)' : ' (all threads)'}`;
    console.log(
      `| ${cores} | ${p.seconds.toFixed(1)} | ${Math.round(documents / p.seconds).toLocaleString('en-US')} | ` +
        `${(bytes / 1e6 / p.seconds).toFixed(0)} | ${bound} |`,
    );
  }
}
