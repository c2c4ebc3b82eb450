import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

describe('gpudedup doctor', () => {
  it('measures the CPU (and, with an adapter, WebGPU) signing rates that --backend auto weighs', async () => {
    const result = await runCli(['doctor', '--json', '--k', '64']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as {
      rates: { backend: string; evaluationsPerSecond: number }[];
      adapters: unknown[];
    };
    const names = report.rates.map((r) => r.backend);
    expect(names).toEqual(expect.arrayContaining(['wasm SIMD, 1 thread', 'wasm scalar, 1 thread']));
    for (const row of report.rates) expect(row.evaluationsPerSecond, row.backend).toBeGreaterThan(0);
    if (report.adapters.length > 0) expect(names.some((n) => n.startsWith('WebGPU'))).toBe(true);
  }, 120_000);
});
