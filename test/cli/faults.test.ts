/**
 * Fault injection: `sign` and `dedup` killed (SIGKILL) at points spread over
 * their run. Every output must then be absent, the previous file, or the
 * complete new one; and `sign --resume` must finish with the very bytes of an
 * uninterrupted run.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, tempDir } from '../support/cli.js';

const corpus =
  gunzipSync(readFileSync('data/sample.jsonl.gz'))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .slice(0, 240)
    .join('\n') + '\n';

/** Runs the CLI and SIGKILLs it after `ms` (if it is still running). */
function killedAfter(args: readonly string[], ms: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** A deterministic spread of kill points in (0, 1): seeds are reproducible. */
const fractions = [0.15, 0.35, 0.55, 0.8];

async function timed(args: readonly string[]): Promise<number> {
  const started = performance.now();
  const result = await runCli(args);
  expect(result.code, result.stderr).toBe(0);
  return performance.now() - started;
}

describe('killed runs leave whole files and resume exactly', () => {
  it('sign: outputs absent or complete after SIGKILL; --resume equals an uninterrupted run byte for byte', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, corpus);
    const common = ['--backend', 'cpu', '-k', '32', '--batch-size', '8', '--threads', '1', '-q'];
    const reference = join(dir, 'ref.npy');
    const ms = await timed(['sign', input, '-o', reference, ...common]);
    const want = [readFileSync(reference), readFileSync(`${reference}.json`)];
    let interrupted = 0;
    for (const [seed, fraction] of fractions.entries()) {
      const out = join(dir, `run${seed}.npy`);
      await killedAfter(['sign', input, '-o', out, ...common], ms * fraction);
      if (!existsSync(`${out}.json`)) interrupted++;
      for (const [path, bytes] of [
        [out, want[0]],
        [`${out}.json`, want[1]],
      ] as const) {
        if (existsSync(path))
          expect(readFileSync(path).equals(bytes), `${path} after a kill at ${fraction}`).toBe(true);
      }
      const resumed = await runCli(['sign', input, '-o', out, ...common, '--resume']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(readFileSync(out).equals(want[0]), `resumed .npy, kill at ${fraction}`).toBe(true);
      expect(readFileSync(`${out}.json`).equals(want[1]), `resumed sidecar, kill at ${fraction}`).toBe(true);
      expect(existsSync(`${out}.partial`) || existsSync(`${out}.json.partial`)).toBe(false);
    }
    expect(interrupted, 'kills that landed before the run finished').toBeGreaterThan(0);
  });

  it('dedup: each output is the previous file or the complete new one after SIGKILL', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, corpus);
    const outputs = {
      '-o': join(dir, 'kept.jsonl'),
      '--clusters': join(dir, 'clusters.csv'),
      '--pairs': join(dir, 'pairs.csv'),
      '--report': join(dir, 'report.json'),
    };
    const args = [
      'dedup',
      input,
      ...Object.entries(outputs).flat(),
      '--backend',
      'cpu',
      '-k',
      '32',
      '--threads',
      '1',
      '-q',
    ];
    const ms = await timed(args);
    const want = new Map(Object.values(outputs).map((path) => [path, readFileSync(path)]));
    let interrupted = 0;
    for (const fraction of fractions) {
      for (const path of Object.values(outputs)) writeFileSync(path, 'previous run\n');
      await killedAfter(args, ms * fraction);
      for (const path of Object.values(outputs)) {
        const now = readFileSync(path);
        // The report holds timings: compare its counts only.
        const complete = path.endsWith('.json')
          ? now.toString() !== 'previous run\n' &&
            JSON.parse(now.toString()).kept === JSON.parse(want.get(path)!.toString()).kept
          : now.equals(want.get(path)!);
        expect(now.toString() === 'previous run\n' || complete, `${path} after a kill at ${fraction}`).toBe(true);
        if (now.toString() === 'previous run\n') interrupted++;
      }
    }
    expect(interrupted, 'kills that landed before the run finished').toBeGreaterThan(0);
  });
});
