import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkEqual, runBench } from '../../../src/pipeline/bench/bench.js';
import { projectFeed, type FeedRate } from '../../../src/pipeline/bench/feedRate.js';
import { makeParams } from '../../../src/signatures/params.js';
import { tempDir } from '../../support/cli.js';

const READ = { textField: 'text', idField: 'id', skipInvalid: false, strict: false };

describe('runBench', () => {
  it('times TypeScript on a prefix, scales it, and checks it against the reference', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    const words = (d: number) => Array.from({ length: 200 }, (_, i) => `w${(i * 7 + d * 13) % 97}x${i % 11}`).join(' ');
    writeFileSync(
      input,
      Array.from({ length: 30 }, (_, d) => JSON.stringify({ id: `d${d}`, text: words(d) })).join('\n') + '\n',
    );
    const summary = await runBench({
      inputs: [input],
      read: READ,
      params: makeParams({ k: 16 }),
      runs: 3,
      webgpu: false,
      cpuThreads: 1,
      typescriptEvaluations: 5000,
      endToEnd: false, // its own test: endToEnd.test.ts
    });
    expect(summary.documents).toBe(30);
    expect(summary.evaluations).toBe(summary.shingles * 16);
    const ts = summary.rows.find((r) => r.backend.startsWith('TypeScript'))!;
    expect(ts.backend).toBe('TypeScript, 1 thread (prefix, scaled)');
    expect(ts.measuredShare).toBeGreaterThan(0);
    expect(ts.measuredShare).toBeLessThan(1);
    for (const row of summary.rows) {
      expect(row.runs).toBe(3);
      expect(row.seconds.min).toBeLessThanOrEqual(row.seconds.median);
      expect(row.seconds.median).toBeLessThanOrEqual(row.seconds.max);
      expect(row.evaluationsPerSecond).toBeCloseTo(summary.evaluations / row.seconds.median, 0);
    }
    expect(summary.rows.map((r) => r.backend)).toEqual([
      'wasm SIMD, 1 thread',
      'wasm scalar, 1 thread',
      'TypeScript, 1 thread (prefix, scaled)',
      'wasm SIMD, 1 thread (all threads)',
    ]);
    // One thread only: its feed rate and busy time, but no projection (the main thread's share cannot be told apart).
    expect(summary.feed.map((f) => f.threads)).toEqual([1]);
    expect(summary.feed[0].mainMsPerMB).toBeGreaterThan(0);
    expect(summary.feedProjection).toBeUndefined();
  });

  it('projects the feed for 16 and 64 cores from the run with the most workers, saying which limit binds', () => {
    const run = (threads: number, mbPerSecond: number, mainMsPerMB: number): FeedRate => ({
      threads,
      seconds: 1,
      mbPerSecond,
      mbPerSecondPerCore: mbPerSecond / threads,
      shingles: 1,
      mainMsPerMB,
    });
    // 40 MB/s per worker; the main thread at 4 ms/MB feeds at most 250 MB/s.
    expect(projectFeed([run(1, 50, 20), run(8, 320, 4), run(4, 150, 2)])).toEqual({
      threads: 8,
      perCoreMBps: 40,
      mainMsPerMB: 4,
      projections: [
        { cores: 16, mbPerSecond: 250, bound: 'main thread' },
        { cores: 64, mbPerSecond: 250, bound: 'main thread' },
      ],
    });
    expect(projectFeed([run(2, 60, 1)], [4, 64])?.projections).toEqual([
      { cores: 4, mbPerSecond: 120, bound: 'workers' },
      { cores: 64, mbPerSecond: 1000, bound: 'main thread' },
    ]);
    expect(projectFeed([run(1, 50, 20)])).toBeUndefined();
  });

  it('refuses inputs without documents', async () => {
    const dir = tempDir();
    const input = join(dir, 'empty.jsonl');
    writeFileSync(input, '');
    await expect(
      runBench({ inputs: [input], read: READ, params: makeParams({ k: 16 }), runs: 1, webgpu: false, endToEnd: false }),
    ).rejects.toThrow(/no documents/);
  });

  it('names the backend whose signatures differ, and accepts a matching prefix', () => {
    const reference = Uint32Array.of(1, 2, 3, 4);
    expect(() => checkEqual('wasm scalar, 1 thread', Uint32Array.of(1, 2, 3, 4), reference)).not.toThrow();
    expect(() => checkEqual('TypeScript', Uint32Array.of(1, 2), reference)).not.toThrow();
    expect(() => checkEqual('WebGPU on x', Uint32Array.of(1, 2, 9, 4), reference)).toThrow(
      /WebGPU on x's signatures differ.*word 2/,
    );
    expect(() => checkEqual('odd', Uint32Array.of(1, 2, 3, 4, 5), reference)).toThrow(/odd returned 5/);
  });
});
