/**
 * SIGINT and SIGTERM sent to a running `gpudedup dedup` (the process itself,
 * as `kill`, `timeout -s INT` and process managers send them, not a
 * terminal's process group): the run stops with 130 or 143, and leaves no
 * temporary behind: neither the spilled signatures in --temp-directory nor
 * an output's temporary beside it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, tempDir } from '../support/cli.js';

/** Distinct documents of 50 words each, deterministic. */
function corpus(documents: number): string {
  let state = 2463534242;
  const next = (): number => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 8;
  const lines: string[] = [];
  for (let i = 0; i < documents; i++) lines.push(JSON.stringify({ id: `d${i}`, text: Array.from({ length: 50 }, () => `w${next() % 5000}`).join(' ') }));
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
function signalledWhen(args: readonly string[], signal: NodeJS.Signals, ready: (stderr: string, fire: () => void) => void): Promise<Ended> {
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

describe('dedup interrupted by a signal', () => {
  // --backend cpu runs the command in the process itself; the default (auto) runs it as the child of a process
  // that filters Dawn's standard error (src/cli/quietNative.ts), which must pass the signal on.
  for (const backend of ['cpu', 'auto'] as const) {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      it(`${signal} mid-spill (--backend ${backend}): exit ${EXIT[signal]}, the spill file and every temporary removed`, async () => {
        const dir = tempDir();
        const spill = join(dir, 'spill');
        mkdirSync(spill);
        writeFileSync(join(dir, 'in.jsonl'), text);
        const args = ['dedup', join(dir, 'in.jsonl'), '-o', join(dir, 'kept.jsonl'), '--memory-limit', '1MiB', '--temp-directory', spill, '--threads', '1', '--backend', backend];
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
    const args = ['dedup', join(dir, 'in.jsonl'), '-o', join(dir, 'kept.jsonl.gz'), '--clusters', join(dir, 'clusters.csv'), '--verify', 'estimate', '--threads', '1', '--backend', 'cpu'];
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
