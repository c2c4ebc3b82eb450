import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_READ } from '../../../src/io/documents.js';
import { measureEndToEnd, projectRun, projectStages } from '../../../src/pipeline/bench/endToEnd.js';
import { makeParams } from '../../../src/signatures/params.js';
import { tempDir } from '../../support/cli.js';

describe('the end-to-end projection', () => {
  it('gives each stage the larger of its main thread and all its CPU over the cores, and names the bound', () => {
    const cpu = {
      'read + sign': { main: 2, other: 30 },
      clustering: { main: 3, other: 0.5 },
      writing: { main: 1, other: 1 },
    };
    // 2 cores: 16 + 3 + 1; 16 cores: 2 + 3 + 1 (clustering's main thread bounds it); 64 likewise.
    expect(projectStages(cpu, 2)).toEqual({ seconds: 20, bound: { stage: 'read + sign', serial: false } });
    expect(projectStages(cpu, 16)).toEqual({ seconds: 6, bound: { stage: 'clustering', serial: true } });
    const [p16, p64] = projectRun(cpu, 1000, 6e6);
    expect([p16.cores, p16.seconds, p16.documentsPerSecond, p16.mbPerSecond]).toEqual([16, 6, 1000 / 6, 1]);
    expect(p64.seconds).toBe(6);
  });

  it('times one whole dedup with the defaults, per stage, and leaves no scratch directory', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    const scratch = join(dir, 'scratch');
    mkdirSync(scratch);
    const lines = gunzipSync(readFileSync('data/sample.jsonl.gz')).toString('utf8').split('\n').filter(Boolean);
    writeFileSync(input, lines.slice(0, 80).join('\n') + '\n');
    const run = await measureEndToEnd([input], DEFAULT_READ, makeParams({ k: 64 }), 2, scratch);
    expect(run.documents).toBe(80);
    expect(run.bytes).toBeGreaterThan(0);
    expect(Object.keys(run.cpuSeconds)).toEqual(expect.arrayContaining(['read + sign', 'clustering', 'writing']));
    for (const t of Object.values(run.cpuSeconds)) expect(t.main + t.other).toBeGreaterThanOrEqual(0);
    expect(run.projections.map((p) => p.cores)).toEqual([16, 64]);
    expect(run.mainMsPerMB).toBeGreaterThan(0);
    expect(readdirSync(scratch)).toEqual([]);
  });
});
