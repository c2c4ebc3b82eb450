/**
 * The host feed rate alone (src/pipeline/bench/feedRate.ts: read, parse, exact
 * pre-pass, shingle buffers), on 1 and 2 threads, with the process's CPU
 * time and the load average: for profiling with node --cpu-prof.
 *
 *   node dist/bench/feed.bench.js CORPUS [THREADS...]
 */
import { loadavg } from 'node:os';
import { DEFAULT_READ } from '../src/io/documents.js';
import { listInputFiles } from '../src/io/readDocuments.js';
import { measureFeedRate } from '../src/pipeline/bench/feedRate.js';
import { makeParams } from '../src/signatures/params.js';

const [corpus, ...threadArgs] = process.argv.slice(2);
const params = makeParams({});
const files = await listInputFiles([corpus]);
for (const threads of threadArgs.length > 0 ? threadArgs.map(Number) : [1, 2]) {
  const cpu = process.cpuUsage();
  const rate = await measureFeedRate(files, params, DEFAULT_READ, threads);
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  console.log(
    `${threads} thread(s): ${rate.seconds.toFixed(2)} s, ${rate.mbPerSecond.toFixed(1)} MB/s, ${(rate.mbPerSecond / threads).toFixed(1)} MB/s per thread, CPU ${cpuSeconds.toFixed(2)} s; load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}
