/**
 * SIGINT and SIGTERM sent to a running `gpudedup dedup` (the process itself,
 * as `kill`, `timeout -s INT` and process managers send them, not a
 * terminal's process group): the run stops with 130 or 143, and leaves no
 * temporary behind: neither the spilled signatures in --temp-directory nor
 * an output's temporary beside it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { noGpuDeviceReason } from '../../src/signatures/gpuDevices.js';
import { CLI, runCli, tempDir } from '../support/cli.js';
import { noGpu, tryAcquireTestDevice } from '../support/gpu.js';

/** Distinct documents of 50 words each, deterministic. */
function corpus(documents: number): string {
  let state = 2463534242;
  const next = (): number => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 8;
  const lines: string[] = [];
  for (let i = 0; i < documents; i++)
    lines.push(JSON.stringify({ id: `d${i}`, text: Array.from({ length: 50 }, () => `w${next() % 5000}`).join(' ') }));
  return lines.join('\n') + '\n';
}

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
  /** Whether the signal was sent before the process ended by itself. */
  readonly sent: boolean;
}

/** Runs the CLI and sends `signal` to its process once `ready` says so (given the stderr so far, or by its own call). */
function signalledWhen(
  args: readonly string[],
  signal: NodeJS.Signals,
  ready: (stderr: string, fire: () => void) => void,
): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let sent = false;
    const fire = (): void => {
      if (sent || child.exitCode !== null) return;
      sent = true;
      child.kill(signal);
    };
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      ready(stderr, fire);
    });
    ready(stderr, fire);
    child.on('error', reject);
    child.on('close', (code, endSignal) => resolve({ code, signal: endSignal, stderr, sent }));
  });
}

const EXIT = { SIGINT: 130, SIGTERM: 143 } as const;
const text = corpus(5_000);

/**
 * The filtering parent (src/cli/quietNative.ts) runs where Dawn may start: `--backend webgpu`, which needs an adapter
 * (lavapipe in CI). Its tests skip without one, or fail under CI (support/gpu.ts); the device is only probed.
 */
function needsAdapter(needs: (test: string) => boolean): void {
  let missing: string | undefined;
  beforeAll(async () => {
    const probe = await tryAcquireTestDevice('signals');
    if ('missing' in probe) missing = probe.missing;
    else probe.gpu.release();
  });
  beforeEach((context) => {
    if (missing !== undefined && needs(context.task.name)) noGpu(missing, (note) => context.skip(note));
  });
}

describe('dedup interrupted by a signal', () => {
  // --backend cpu (and auto on a machine without a GPU device) runs the command in the process itself; webgpu (and
  // auto where a GPU device may exist) runs it as the child of a process that filters Dawn's standard error
  // (src/cli/quietNative.ts), which must pass the signal on.
  needsAdapter((test) => test.includes('--backend webgpu'));
  for (const backend of ['cpu', 'webgpu'] as const) {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      it(`${signal} mid-spill (--backend ${backend}): exit ${EXIT[signal]}, the spill file and every temporary removed`, async () => {
        const dir = tempDir();
        const spill = join(dir, 'spill');
        mkdirSync(spill);
        writeFileSync(join(dir, 'in.jsonl'), text);
        const args = [
          'dedup',
          join(dir, 'in.jsonl'),
          '-o',
          join(dir, 'kept.jsonl'),
          '--memory-limit',
          '1MiB',
          '--temp-directory',
          spill,
          '--threads',
          '1',
          '--backend',
          backend,
        ];
        let spilled = false;
        const ended = await signalledWhen(args, signal, (stderr, fire) => {
          // The note comes as the spill file is opened: the signal lands while rows are being written to it.
          if (!spilled && /spilling them to/.test(stderr)) {
            spilled = true;
            // Fire as soon as the spill file is there (a fixed delay let a fast run end first, or a starved test runner).
            let tries = 0;
            const poll = setInterval(() => {
              const there = existsSync(spill) && readdirSync(spill).length > 0;
              if (!there && ++tries < 2000) return;
              clearInterval(poll);
              if (there) fire(); // else the run ended (or never spilled): the test's checks below say so
            }, 5);
          }
        });
        expect(ended.sent, `the run ended before the signal: ${ended.stderr}`).toBe(true);
        expect(ended.code, ended.stderr).toBe(EXIT[signal]);
        expect(readdirSync(spill)).toEqual([]);
        expect(readdirSync(dir).sort()).toEqual(['in.jsonl', 'spill']);
      });
    }
  }

  it("SIGTERM while an output is being written removes the output's temporary", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'in.jsonl'), text);
    const args = [
      'dedup',
      join(dir, 'in.jsonl'),
      '-o',
      join(dir, 'kept.jsonl.gz'),
      '--clusters',
      join(dir, 'clusters.csv'),
      '--verify',
      'estimate',
      '--threads',
      '1',
      '--backend',
      'cpu',
    ];
    let watcher: ReturnType<typeof watch> | undefined;
    let seen = '';
    const ended = await signalledWhen(args, 'SIGTERM', (_stderr, fire) => {
      watcher ??= watch(dir, (_event, name) => {
        if (name !== null && /kept\.jsonl\.gz.*\.partial$/.test(name)) {
          seen = name;
          fire();
        }
      });
    });
    watcher?.close();
    expect(seen, 'an output temporary appeared').not.toBe('');
    expect(ended.sent, `the run ended before the signal: ${ended.stderr}`).toBe(true);
    expect(ended.code, ended.stderr).toBe(143);
    expect(readdirSync(dir)).toEqual(['in.jsonl']);
  });
});

/**
 * `kill -9` of the process the user started: with --backend webgpu that is the filtering parent
 * (src/cli/quietNative.ts), and the command runs in its child. The child must stop with it, even while its main thread
 * is busy for seconds in synchronous work (one huge document: its shingling and signing), when no event of its own is
 * seen: nothing written, no temporary left, an index unchanged and unlocked.
 */
describe.skipIf(process.platform !== 'linux')('kill -9 of the filtering parent', () => {
  /** One document of 8 M words (a long synchronous stretch) and a few small ones. */
  function hugeCorpus(): string {
    let state = 1;
    const words: string[] = new Array(8_000_000);
    for (let i = 0; i < words.length; i++)
      words[i] = `w${(state = (Math.imul(state, 1103515245) + 12345) >>> 0) % 100_000}`;
    const lines = [JSON.stringify({ id: 'huge', text: words.join(' ') })];
    for (let i = 0; i < 20; i++)
      lines.push(JSON.stringify({ id: `s${i}`, text: words.slice(i * 100, i * 100 + 100).join(' ') }));
    return lines.join('\n') + '\n';
  }

  /** Linux: the children of `pid`, from /proc. */
  function childrenOf(pid: number): number[] {
    const found: number[] = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) found.push(Number(name));
      } catch {
        // gone meanwhile
      }
    }
    return found;
  }

  /** CPU seconds `pid` has used; undefined once it is gone (or a zombie: dead, not yet reaped). */
  function cpuSeconds(pid: number): number | undefined {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const rest = fields.slice(fields.lastIndexOf(')') + 2).split(' ');
      if (rest[0] === 'Z' || rest[0] === 'X') return undefined;
      return (Number(rest[11]) + Number(rest[12])) / 100; // utime + stime, in clock ticks (100 a second)
    } catch {
      return undefined;
    }
  }

  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

  /** Starts the CLI, kills it with SIGKILL once its child has worked a while, and says how long the child lived on. */
  async function killParentMidRun(
    args: readonly string[],
    cpuBeforeKill: number,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null; childLivedMs: number; stderr: string }> {
    const parent = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    parent.stderr.on('data', (chunk) => (stderr += chunk));
    const ended = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      parent.on('close', (code, signal) => resolve([code, signal])),
    );
    let child: number | undefined;
    for (let waited = 0; child === undefined && waited < 60_000 && parent.exitCode === null; waited += 10) {
      child = childrenOf(parent.pid!)[0];
      if (child === undefined) await sleep(10);
    }
    expect(child, `no child process: ${stderr}`).toBeDefined();
    // Past node's start-up (about half a CPU second) and into the work.
    for (let waited = 0; (cpuSeconds(child!) ?? Infinity) < cpuBeforeKill && waited < 60_000; waited += 10)
      await sleep(10);
    expect(cpuSeconds(child!), `the child ended before the kill: ${stderr}`).toBeDefined();
    parent.kill('SIGKILL');
    const killedAt = performance.now();
    const [code, signal] = await ended;
    while (cpuSeconds(child!) !== undefined && performance.now() - killedAt < 10_000) await sleep(5);
    return { code, signal, childLivedMs: performance.now() - killedAt, stderr };
  }

  const huge = hugeCorpus();
  needsAdapter((test) => test.includes('the child stops'));

  it.skipIf(noGpuDeviceReason() === undefined)(
    'with the default backend on a machine without a GPU device, the command runs in the process itself: no child',
    async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'in.jsonl'), corpus(2_000));
      const run = spawn(process.execPath, [CLI, 'dedup', join(dir, 'in.jsonl'), '-o', join(dir, 'kept.jsonl')], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      run.stderr.on('data', (chunk) => (stderr += chunk));
      const ended = new Promise<number | null>((resolve) => run.on('close', resolve));
      const children = new Set<number>();
      for (let polls = 0; run.exitCode === null && polls < 12_000; polls++) {
        for (const child of childrenOf(run.pid!)) children.add(child);
        await sleep(5);
      }
      expect(await ended, stderr).toBe(0);
      expect([...children], stderr).toEqual([]);
      expect(stderr).toMatch(/^backend cpu: chosen/m);
    },
  );

  it('dedup: the child stops at once, writes no output and leaves no temporary', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'in.jsonl'), huge);
    const run = await killParentMidRun(
      [
        'dedup',
        join(dir, 'in.jsonl'),
        '-o',
        join(dir, 'kept.jsonl'),
        '--clusters',
        join(dir, 'clusters.csv'),
        '--threads',
        '1',
        '--backend',
        'webgpu',
      ],
      1.5,
    ); // several CPU seconds on the huge document
    expect(run.signal).toBe('SIGKILL');
    expect(run.childLivedMs, run.stderr).toBeLessThan(1500);
    await sleep(300);
    expect(readdirSync(dir)).toEqual(['in.jsonl']);
  }, 120_000);

  // (Not the huge document: index add fails on it today, 'memory access out of bounds'.)
  it('index add: the child stops at once; the index is unchanged, unlocked, and no output or temporary is left', async () => {
    const dir = tempDir();
    const index = join(dir, 'index');
    writeFileSync(join(dir, 'a.jsonl'), corpus(200));
    writeFileSync(join(dir, 'in.jsonl'), corpus(150_000).replace(/"id":"d/g, '"id":"n'));
    const created = await runCli(['index', 'create', index, join(dir, 'a.jsonl'), '--backend', 'cpu']);
    expect(created.code, created.stderr).toBe(0);
    const before = readdirSync(index).sort();
    const run = await killParentMidRun(
      [
        'index',
        'add',
        index,
        join(dir, 'in.jsonl'),
        '-o',
        join(dir, 'kept.jsonl'),
        '--threads',
        '1',
        '--backend',
        'webgpu',
      ],
      1.0,
    ); // about 3 CPU seconds in all
    expect(run.signal).toBe('SIGKILL');
    expect(run.childLivedMs, run.stderr).toBeLessThan(1500);
    await sleep(300);
    expect(readdirSync(dir).sort()).toEqual(['a.jsonl', 'in.jsonl', 'index']);
    expect(readdirSync(index).sort()).toEqual(before);
    const stats = await runCli(['index', 'stats', index, '--json']);
    expect(JSON.parse(stats.stdout)).toMatchObject({ documents: 200 });
  }, 120_000);
});
