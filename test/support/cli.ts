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
