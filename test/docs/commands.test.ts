/**
 * Every command the docs show runs. Each shell block of README.md and docs/*.md that calls gpudedup (as
 * `gpudedup …`, `npx gpudedup …` or `node dist/src/cli/main.js …`) is run line by line, for real, in a temporary
 * directory holding the bundled corpus (data/sample.jsonl.gz), the blocks of one page in order and in one directory
 * (a page's examples may use what its earlier ones wrote); every line must exit 0. `gpudedup` is the built CLI (a
 * shim on PATH). A `gpudedup serve` line is started (on `--port 0` when it names no port: the docs' 8080 may be
 * taken), must print its address, and must stop with status 0 on SIGTERM. A block marked ```` ```sh no-run: REASON ````
 * is not run; the mark needs its reason, and there are few. Also: `npm start` prints the summary the README shows.
 */
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, tempDir } from '../support/cli.js';
import { asShimmed, docFiles, runsGpudedup, shellBlocks, withoutComment, type ShellBlock } from './docBlocks.js';

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A directory with data/sample.jsonl.gz, and a bin/ whose `gpudedup` runs the built CLI. */
function workspace(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = tempDir('gpudedup-docs-');
  mkdirSync(join(dir, 'data'));
  copyFileSync('data/sample.jsonl.gz', join(dir, 'data/sample.jsonl.gz'));
  const bin = join(dir, '.bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'gpudedup'), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`);
  chmodSync(join(bin, 'gpudedup'), 0o755);
  return { dir, env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` } };
}

/**
 * The status of a line: its last pipeline's first failing member, where a member before the last may end by SIGPIPE
 * (141: `zcat … | head` closes zcat's output early, as in any shell).
 */
const PIPE_STATUS = `
status=("\${PIPESTATUS[@]}"); last=$((\${#status[@]} - 1))
for i in "\${!status[@]}"; do s=\${status[$i]}; if [ "$s" != 0 ] && { [ "$i" = "$last" ] || [ "$s" != 141 ]; }; then exit "$s"; fi; done`;

function run(command: string, dir: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `${command}${PIPE_STATUS}`], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts a `gpudedup serve` line, waits for its address, stops it with SIGTERM. */
function serve(command: string, dir: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  const line = withoutComment(command);
  const started = /\s--port[\s=]/.test(line) ? line : `${line} --port 0`;
  return new Promise((resolve, reject) => {
    // Its own process group: SIGTERM goes to the server (and to bash, where bash did not exec it).
    const child = spawn('bash', ['-c', started], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    // Never -0: process.kill(0) would signal this test's own process group.
    if (child.pid === undefined) {
      child.on('error', reject); // spawn failed: its 'error' event follows
      return;
    }
    const group = -child.pid;
    let stdout = '';
    let stderr = '';
    let signalled = false;
    const deadline = setTimeout(() => process.kill(group, 'SIGKILL'), 120_000);
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (!signalled && / on http:\/\/\S+\n/.test(stdout)) {
        signalled = true;
        process.kill(group, 'SIGTERM');
      }
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      // -1: it ended without stopping as it should (no address printed, or no 'stopped' line).
      const stopped = /stopped, index closed/.test(stdout);
      resolve({ code: stopped ? code : -1, stdout, stderr: `${stderr}(ended with ${code ?? signal})\n` });
    });
  });
}

/**
 * Why an example shows nothing, or undefined: a query whose every answer has no match, a removal that removes nothing
 * (issue 40, item 12: the README's query and index.md's takedown did).
 */
function showsNothing(command: string, stdout: string): string | undefined {
  const answers = stdout.split('\n').filter((line) => line.startsWith('{"id":'));
  if (/gpudedup query\s/.test(command) && answers.length > 0 && answers.every((a) => a.includes('"matches":[]')))
    return 'the query matches nothing';
  if (/gpudedup index remove\s/.test(command) && /^removed 0 documents/m.test(stdout)) return 'it removes nothing';
  return undefined;
}

const toRun = (block: ShellBlock): boolean => !block.marks.startsWith('no-run') && block.commands.some(runsGpudedup);

async function runPage(blocks: readonly ShellBlock[]): Promise<void> {
  const { dir, env } = workspace();
  for (const block of blocks.filter(toRun)) {
    for (const command of block.commands) {
      const shimmed = asShimmed(command);
      const result = /(^|[|;&]\s*|\s)gpudedup serve\s/.test(shimmed)
        ? await serve(shimmed, dir, env)
        : await run(shimmed, dir, env);
      const where = `${block.file}:${block.line}: ${command}`;
      expect(result.code, `${where}\n${result.stderr}${result.stdout.slice(-2000)}`).toBe(0);
      expect(showsNothing(shimmed, result.stdout), where).toBeUndefined();
    }
  }
}

describe('the commands the docs show', () => {
  const pages = docFiles().map((file) => ({ file, blocks: shellBlocks(file) }));

  it('marks a block not run only with its reason, and only where it calls gpudedup', () => {
    const marked = pages.flatMap((p) => p.blocks).filter((b) => b.marks !== '');
    for (const block of marked) {
      expect(block.marks, `${block.file}:${block.line}`).toMatch(/^no-run: \S.{10,}/);
      expect(
        block.commands.some(runsGpudedup),
        `${block.file}:${block.line}: a mark on a block with no gpudedup command`,
      ).toBe(true);
    }
    expect(marked.length).toBeLessThanOrEqual(3);
    expect(pages.flatMap((p) => p.blocks).filter(toRun).length).toBeGreaterThan(10);
  });

  for (const { file, blocks } of pages.filter((p) => p.blocks.some(toRun))) {
    it.concurrent(`${file}: every gpudedup command runs on the bundled corpus`, () => runPage(blocks), 300_000);
  }

  it.concurrent('npm start prints the summary the README shows', async () => {
    const { dir, env } = workspace();
    const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
    const result = await run(asShimmed(start), dir, env);
    expect(result.code, result.stderr).toBe(0);
    const shown = /```\n(deduplicated 727 documents[\s\S]*?)```/.exec(readFileSync('README.md', 'utf8'));
    expect(shown, 'README.md: the summary npm start prints').not.toBeNull();
    // Every line but the backend and the time, which depend on the machine.
    const stable = (text: string): string[] =>
      text.split('\n').filter((l) => l !== '' && !/^\s+(backend|time)\s/.test(l));
    expect(stable(result.stdout)).toEqual(stable(shown?.[1] ?? ''));
  }, 120_000);
});
