/**
 * `cluster --report`'s `steps` (src/engines/stepPeak.ts StepLog, duckdb.ts): each step of each phase with its
 * seconds, CPU, pages first touched and peak; the host step's parts (pairs out of DuckDB, the texts' sets, the
 * decisions, pairs back in) named inside it; a loop's steps summed over its rounds. On the sample, signed with text
 * ranges, so the exact pass runs on the host in setup and in the representative check.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runCliHere, tempDir } from '../support/cli.js';
import { StepLog } from '../../src/engines/stepPeak.js';

interface Step {
  phase: string;
  step: string;
  runs: number;
  seconds: number;
  userSeconds: number;
  systemSeconds: number;
  minorFaults: number;
  peakMiB: number | null;
}

describe('each step’s cost', () => {
  it('StepLog: parts named inside their step, listed after it, runs summed, CPU and wall time measured', async () => {
    const log = new StepLog();
    // Busy for `ms` of this thread's CPU (on a loaded machine wall time is more).
    const spin = (ms: number): void => {
      const cpu = (): number => process.cpuUsage().user;
      for (const end = cpu() + ms * 1000; cpu() < end; );
    };
    await log.inPhase('setup', () =>
      log.step('outer', async () => {
        await log.step('busy', async () => spin(60));
        await log.step('idle', () => sleep(60));
      }),
    );
    await log.inPhase('components', async () => {
      for (let round = 0; round < 3; round++) await log.step('edges', async () => spin(10));
    });
    const costs = log.list();
    expect(costs.map((c) => `${c.phase} ${c.step} ${c.runs}`)).toEqual([
      'setup outer 1',
      'setup outer.busy 1',
      'setup outer.idle 1',
      'components edges 3',
    ]);
    const [outer, busy, idle, edges] = costs;
    expect(busy.userMs + busy.systemMs).toBeGreaterThanOrEqual(55);
    expect(idle.ms).toBeGreaterThanOrEqual(55);
    expect(idle.userMs + idle.systemMs).toBeLessThan(idle.ms);
    expect(outer.ms).toBeGreaterThanOrEqual(busy.ms + idle.ms);
    expect(edges.ms).toBeGreaterThanOrEqual(29);
    expect(log.timings.setup).toBeGreaterThanOrEqual(outer.ms);
    expect(Object.keys(log.timings)).toEqual(['setup', 'components']);
  });

  it('the report lists every step of every phase; setup’s steps add up to its seconds, the host step’s parts to it', async () => {
    const dir = tempDir();
    const [input, shard, report] = [join(dir, 'sample.jsonl'), join(dir, 's.parquet'), join(dir, 'report.json')];
    writeFileSync(input, gunzipSync(readFileSync('data/sample.jsonl.gz')));
    for (const args of [
      ['sign', input, '--shard', '1/1', '-o', shard, '-q'],
      ['cluster', shard, '--clusters', join(dir, 'c.csv'), '--report', report, '-q'],
    ]) {
      const result = await runCliHere(args);
      expect(result.code, result.stderr).toBe(0);
    }
    const { seconds, steps, candidates } = JSON.parse(readFileSync(report, 'utf8')) as {
      seconds: Record<string, number>;
      steps: Step[];
      candidates: { exactPairs: number };
    };
    expect(candidates.exactPairs).toBeGreaterThan(0);
    expect([...new Set(steps.map((s) => s.phase))]).toEqual(['setup', 'components', 'finish', 'inspect']);
    const names = steps.filter((s) => s.phase === 'setup').map((s) => s.step);
    expect(names).toEqual(
      expect.arrayContaining(['exact_groups', 'buckets', 'candidates', 'scored', 'margin_passed', 'edges']),
    );
    const host = ['', '.out', '.host', '.host.sets', '.host.decide', '.in'];
    expect(names.filter((n) => n.startsWith('margin_passed_host'))).toEqual(host.map((p) => `margin_passed_host${p}`));
    const checkSteps = steps.filter((s) => s.phase === 'components').map((s) => s.step);
    expect(checkSteps).toEqual(expect.arrayContaining(host.map((p) => `check_exact_host${p}`)));
    expect(steps.find((s) => s.step === 'large_star')!.runs).toBeGreaterThanOrEqual(1);
    // The phase is its steps and nothing else: their seconds (rounded to ms each) add up to it.
    const top = steps.filter((s) => s.phase === 'setup' && !s.step.includes('.'));
    const sum = top.reduce((total, s) => total + s.seconds, 0);
    expect(sum).toBeLessThanOrEqual(seconds.setup + 0.001 * top.length);
    expect(sum).toBeGreaterThanOrEqual(seconds.setup * 0.9 - 0.02);
    const cost = (name: string): Step => steps.find((s) => s.phase === 'setup' && s.step === name)!;
    const parts = ['out', 'host', 'in'].reduce((total, p) => total + cost(`margin_passed_host.${p}`).seconds, 0);
    expect(parts).toBeLessThanOrEqual(cost('margin_passed_host').seconds + 0.003);
    expect(cost('margin_passed_host.host.sets').userSeconds).toBeGreaterThan(0);
    if (process.platform === 'linux')
      for (const s of steps) expect(s.peakMiB, `${s.phase} ${s.step}`).toBeGreaterThan(0);
  }, 60_000);
});
