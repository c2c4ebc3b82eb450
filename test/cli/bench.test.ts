import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

const sample = gunzipSync(readFileSync('data/sample.jsonl.gz')).toString('utf8').split('\n').filter(Boolean);

interface BenchJson {
  documents: number;
  evaluations: number;
  machine: { cpu: string; cores: number; memoryBytes: number; node: string; adapter?: string };
  rows: {
    backend: string;
    runs: number;
    docsPerSecond: number;
    mbPerSecond: number;
    shinglesPerSecond: number;
    evaluationsPerSecond: number;
    timeVsFastest: number;
  }[];
  feed: { threads: number; mbPerSecond: number; mainMsPerMB: number }[];
  feedProjection?: {
    perCoreMBps: number;
    mainMsPerMB: number;
    projections: { cores: number; mbPerSecond: number; bound: 'workers' | 'main thread' }[];
  };
  endToEnd: {
    documents: number;
    seconds: number;
    mainMsPerMB: number;
    cpuSeconds: Record<string, { main: number; other: number }>;
    projections: { cores: number; seconds: number; mbPerSecond: number; bound: { stage: string; serial: boolean } }[];
  };
}

describe('gpudedup bench', () => {
  it('times every CPU kernel (and WebGPU when an adapter is there) on a slice, with JSON and SVG outputs', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, sample.slice(0, 60).join('\n') + '\n');
    const json = join(dir, 'out.json');
    const svg = join(dir, 'out.svg');
    const result = await runCli(['bench', input, '--runs', '1', '-k', '64', '--json', json, '--plot', svg]);
    expect(result.stderr).not.toMatch(/gpudedup:|error/i);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^60 documents, .*k = 64/);
    const [beforeEndToEnd, endToEnd] = result.stdout.split('end to end: ');
    const [signing, feedAndProjection] = beforeEndToEnd.split('host feed rate for a GPU');
    const [feed, projection] = feedAndProjection.split('feed projected from');
    const table = signing
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| backend') && !l.startsWith('| ---'));
    // The feed rate: one thread, then every thread, each a positive MB/s and main-thread ms per MB.
    const feedRows = feed.split('\n').filter((l) => /^\| \d+ \|/.test(l));
    expect(feedRows.length).toBeGreaterThanOrEqual(1);
    for (const row of feedRows) {
      expect(Number(row.split(' | ')[2])).toBeGreaterThan(0);
      expect(Number(row.split(' | ')[4].replace(' |', ''))).toBeGreaterThan(0);
    }
    const names = table.map((l) => l.split(' | ')[0].slice(2));
    expect(names.slice(0, 4)).toEqual([
      'wasm SIMD, 1 thread',
      'wasm scalar, 1 thread',
      'TypeScript, 1 thread',
      expect.stringMatching(/^wasm SIMD, \d+ threads? \(all threads\)$/),
    ]);
    for (const line of table) {
      const cells = line.split(' | ');
      expect(Number(cells[1])).toBeGreaterThan(0); // median seconds
      expect(cells[3]).toMatch(/^[\d.]+( [kMG])?$/); // docs/s
    }

    const report = JSON.parse(readFileSync(json, 'utf8')) as BenchJson;
    expect(report.documents).toBe(60);
    expect(report.machine.cpu.length).toBeGreaterThan(0);
    expect(report.machine.cores).toBeGreaterThan(0);
    expect(report.machine.memoryBytes).toBeGreaterThan(0);
    expect(report.machine.node).toBe(process.version);
    expect(report.rows.map((r) => r.backend)).toEqual(names);
    for (const row of report.rows) {
      expect(row.runs).toBe(1);
      for (const rate of [row.docsPerSecond, row.mbPerSecond, row.shinglesPerSecond, row.evaluationsPerSecond])
        expect(rate).toBeGreaterThan(0);
      expect(row.timeVsFastest).toBeGreaterThanOrEqual(1);
    }
    expect(Math.min(...report.rows.map((r) => r.timeVsFastest))).toBe(1);
    // With workers, the feed projected for 16 and 64 cores, each bound by the workers or the main thread, as printed.
    expect(report.feed.map((f) => f.threads)).toEqual(feedRows.map((row) => Number(row.split(' | ')[0].slice(2))));
    if (report.feed.some((f) => f.threads > 1)) {
      const p = report.feedProjection!;
      expect(p.projections.map((r) => r.cores)).toEqual([16, 64]);
      for (const r of p.projections)
        expect(r.mbPerSecond).toBeCloseTo(Math.min(r.cores * p.perCoreMBps, 1000 / p.mainMsPerMB), 6);
      const printed = projection.split('\n').filter((l) => /^\| \d+ \|/.test(l));
      expect(printed.map((l) => l.split(' | ').slice(0, 2))).toEqual(
        p.projections.map((r) => [`| ${r.cores}`, r.mbPerSecond.toFixed(0)]),
      );
      expect(printed.map((l) => /main thread/.test(l))).toEqual(p.projections.map((r) => r.bound === 'main thread'));
    } else expect(projection).toBeUndefined();
    // One whole dedup of the input: every stage's CPU seconds as printed, projected to 16 and 64 cores.
    const e = report.endToEnd;
    expect(e.documents).toBe(60);
    expect(Object.keys(e.cpuSeconds)).toEqual(expect.arrayContaining(['read + sign', 'clustering', 'writing']));
    const [stages, projectedPart] = endToEnd.split('projected (');
    const stageRows = stages.split('\n').filter((l) => /^\| [a-z]/.test(l) && !l.startsWith('| stage'));
    expect(stageRows.map((l) => l.split(' | ')[0].slice(2))).toEqual(Object.keys(e.cpuSeconds));
    expect(e.projections.map((p) => p.cores)).toEqual([16, 64]);
    for (const p of e.projections) {
      const serial = Object.values(e.cpuSeconds).reduce((sum, t) => sum + t.main, 0);
      expect(p.seconds).toBeGreaterThanOrEqual(serial - 1e-9); // never below the main thread's own work
      expect(Object.keys(e.cpuSeconds)).toContain(p.bound.stage);
    }
    const projected = projectedPart.split('\n').filter((l) => /^\| \d+ \|/.test(l));
    expect(projected.map((l) => l.split(' | ')[0].slice(2))).toEqual(['16', '64']);
    // WebGPU, when an adapter is found, is the fifth row; it got there only with signatures equal to wasm SIMD's.
    if (report.machine.adapter !== undefined) expect(names[4]).toBe(report.machine.adapter);
    else expect(names).toHaveLength(4);

    const plot = readFileSync(svg, 'utf8');
    expect(plot.startsWith('<svg')).toBe(true);
    expect(plot.trimEnd().endsWith('</svg>')).toBe(true);
    expect([...plot.matchAll(/<rect [^>]*data-backend="/g)]).toHaveLength(report.rows.length);
  }, 30_000);

  it('refuses to write its JSON over an input', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, sample.slice(0, 5).join('\n') + '\n');
    const result = await runCli(['bench', input, '--runs', '1', '--no-webgpu', '--json', input]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--json/);
    expect(readFileSync(input, 'utf8')).toBe(sample.slice(0, 5).join('\n') + '\n');
  });
});
