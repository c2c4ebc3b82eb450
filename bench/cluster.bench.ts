/**
 * The cluster join at scale: `node dist/bench/cluster.bench.js [documents...]`
 * (default 100000) generates two synthetic shards per size
 * (bench/syntheticShards.ts, k = 128, 16 × 8 bands, with shingle lists) and
 * times `runCluster` on DuckDB (2 threads, 2 GB) once per verification
 * (BENCH_MODES, default `estimate/none,hybrid/representative`: the join
 * before verification moved into SQL, and the defaults now), checking the
 * planted answer (BENCH_ENGINES=duckdb,spark for Spark local[2] too). Reports documents/s of the join and, as the baseline in the
 * same run, the time DuckDB takes to scan the shards' slots once (a full read
 * of every signature).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDuckDb, sqlString } from '../src/engines/duckdb.js';
import { runCluster, type EngineName } from '../src/pipeline/cluster/cluster.js';
import { writeSyntheticShard } from './syntheticShards.js';
import type { ClusterCheck, VerifyMode } from '../src/options.js';

const sizes = process.argv.slice(2).map(Number);
const memoryLimit = process.env.BENCH_MEMORY ?? '2GB';
const engines = (process.env.BENCH_ENGINES ?? 'duckdb').split(',') as EngineName[];
const modes = (process.env.BENCH_MODES ?? 'estimate/none,hybrid/representative')
  .split(',')
  .map((m) => m.split('/') as [VerifyMode, ClusterCheck]);

for (const documents of sizes.length > 0 ? sizes : [100_000]) {
  const dir = mkdtempSync(join(tmpdir(), 'gpudedup-bench-cluster-'));
  try {
    const shards = [0, 1].map((index) => join(dir, `shard-${index + 1}.parquet`));
    let started = performance.now();
    for (const [index, path] of shards.entries())
      await writeSyntheticShard(path, {
        documents,
        k: 128,
        bands: 16,
        rows: 8,
        shard: { index, count: 2 },
        memoryLimit,
        sets: true,
      });
    const generateSeconds = (performance.now() - started) / 1000;
    const bytes = shards.reduce((sum, p) => sum + statSync(p).size, 0);

    const { connection, close } = await openDuckDb({ threads: 2, memoryLimit });
    started = performance.now();
    const slots = Array.from({ length: 128 }, (_, i) => `SUM(slot_${i} & 1)`).join(' + ');
    await connection.run(`SELECT ${slots} FROM read_parquet([${shards.map(sqlString).join(', ')}])`);
    const scanSeconds = (performance.now() - started) / 1000;
    close();

    const runs = engines.flatMap((engine) =>
      modes.map(([verify, clusterCheck]) => [engine, verify, clusterCheck] as const),
    );
    for (const [engine, verify, clusterCheck] of runs) {
      started = performance.now();
      const s = await runCluster({
        shards,
        engine,
        maxBucketPairs: 16,
        keep: { kind: 'first' },
        verify,
        clusterCheck,
        clusters: join(dir, 'clusters.csv'),
        engineOptions: { threads: 2, memoryLimit, tempDirectory: join(dir, 'spill') },
      });
      const seconds = (performance.now() - started) / 1000;
      const ok =
        s.clusters === documents / 2 &&
        s.stats.verified === documents / 2 &&
        s.stats.candidates === documents / 2 + documents / 5;
      const t = s.stats.timings;
      console.log(
        JSON.stringify({
          documents,
          engine,
          verify,
          clusterCheck,
          exactPairs: s.stats.exactPairs,
          checkRounds: s.stats.checkRounds,
          shardMB: +(bytes / 1e6).toFixed(1),
          generateSeconds: +generateSeconds.toFixed(2),
          scanSeconds: +scanSeconds.toFixed(2),
          clusterSeconds: +seconds.toFixed(2),
          setupSeconds: +(t.setup / 1000).toFixed(2),
          componentsSeconds: +(t.components / 1000).toFixed(2),
          finishSeconds: +(t.finish / 1000).toFixed(2),
          rounds: s.stats.rounds,
          docsPerSecond: Math.round(documents / seconds),
          ratioToScan: +(seconds / scanSeconds).toFixed(1),
          peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
          plantedAnswer: ok,
        }),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
