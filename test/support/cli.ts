/** Runs the built CLI (`npm test` builds first) as a user would, on real files; never a build older than src/. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { requireFreshDist } from './freshDist.js';

requireFreshDist(); // every test file that runs the CLI imports this module: a stale dist/ fails it before any test

/** GPUDEDUP_TEST_CLI: another build to run the tests against (e.g. to see a new test fail on the old code). */
export const CLI = process.env.GPUDEDUP_TEST_CLI ?? join(process.cwd(), 'dist/src/cli/main.js');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: readonly string[], stdin?: string | Buffer): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => undefined); // a CLI that fails early closes its input: EPIPE is expected
    child.stdin.end(stdin ?? '');
  });
}

/** Removed when the test file ends (tempDirs.ts). */
export { tempDir } from './tempDirs.js';

/**
 * The CLI run in this process (src/cli/commandLine.ts, as main.ts runs it), for a refusal a test checks by its status
 * and message, or a run whose outputs a test compares: no process to start, a third of a CPU-second each, or more
 * with the modules a command loads. Its standard output and error are captured, and commander's exits come back as
 * statuses; runs asked for together (Promise.all) run one after another. No standard input; GPUDEDUP_TEST_CLI does
 * not apply (it runs src/). Each command keeps at least one test through runCli, a real process and its exit status.
 */
export function runCliHere(args: readonly string[]): Promise<CliResult> {
  // One at a time: a run replaces process.stdout.write and process.stderr.write while it lasts.
  const run = lastHere.then(() => runHere(args));
  lastHere = run.catch(() => undefined);
  return run;
}
let lastHere: Promise<unknown> = Promise.resolve();

async function runHere(args: readonly string[]): Promise<CliResult> {
  const { runCommandLine } = await import('../../src/cli/commandLine.js');
  let stdout = '';
  let stderr = '';
  const writes = [process.stdout.write, process.stderr.write] as const;
  const capture =
    (add: (text: string) => void) =>
    (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      add(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      (rest.find((r) => typeof r === 'function') as (() => void) | undefined)?.();
      return true;
    };
  process.stdout.write = capture((text) => (stdout += text)) as typeof process.stdout.write;
  process.stderr.write = capture((text) => (stderr += text)) as typeof process.stderr.write;
  const exitCode = process.exitCode;
  try {
    const code = await runCommandLine(['node', 'gpudedup', ...args], 'test', (program) => {
      for (const command of [program, ...program.commands, ...program.commands.flatMap((c) => c.commands)])
        command.exitOverride();
    });
    return { code, stdout, stderr };
  } finally {
    [process.stdout.write, process.stderr.write] = writes;
    process.exitCode = exitCode;
  }
}
