/**
 * Named pipes and process substitution (issue 31, item 10): `dedup <(zcat
 * a.gz)` failed with "invalid seek (ESPIPE, read)" in dedup, sign, query and
 * index add (the input's head was read by position to tell its format). A
 * pipe is read as standard input is: once, front to back, as JSON Lines
 * (gzip too); what must read the corpus twice copies it to a file first (issue 40:
 * test/cli/spool.test.ts).
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CLI, tempDir } from '../support/cli.js';

const LINES = [
  'alpha beta gamma delta epsilon zeta eta theta iota',
  'alpha beta gamma delta epsilon zeta eta theta iota',
  'one two three four five six seven eight nine',
]
  .map((text, i) => JSON.stringify({ id: `d${i}`, text }))
  .join('\n');

/** Runs `script` in bash (for <( ) and mkfifo) in `dir`, the CLI as $G; its exit code and output. */
function bash(dir: string, script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {
      cwd: dir,
      env: { ...process.env, G: `${process.execPath} ${CLI}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function corpus(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'a.jsonl'), `${LINES}\n`);
  writeFileSync(join(dir, 'a.jsonl.gz'), gzipSync(`${LINES}\n`));
  return dir;
}

describe('named pipes and process substitution are read as streams', () => {
  it('sign, index add (with -o) and query read <(zcat a.gz), as the file itself', async () => {
    const dir = corpus();
    const piped = await bash(
      dir,
      '$G sign <(zcat a.jsonl.gz) -o piped.npy && $G sign a.jsonl -o file.npy && $G index create idx <(zcat a.jsonl.gz) -o added.jsonl && $G query idx <(zcat a.jsonl.gz) > answers.jsonl',
    );
    expect(piped.stderr).not.toMatch(/ESPIPE/);
    expect(piped.code, piped.stderr).toBe(0);
    expect(readFileSync(join(dir, 'piped.npy'))).toEqual(readFileSync(join(dir, 'file.npy')));
    expect(readFileSync(join(dir, 'added.jsonl'), 'utf8')).toBe(`${LINES.split('\n')[0]}\n${LINES.split('\n')[2]}\n`);
    const answers = readFileSync(join(dir, 'answers.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(answers.map((a) => a.matches.map((m: { id: string }) => m.id))).toEqual([['d0'], ['d0'], ['d2']]);
  });

  it('a FIFO made by mkfifo: dedup --dry-run, index add and dedup -o read it', async () => {
    const dir = corpus();
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    // The writer opens the FIFO in a shell of its own, bounded: one whose reader never comes ends in 20 s.
    const feed = (command: string): string => `(timeout 20 sh -c '${command} > fifo' </dev/null >/dev/null 2>&1 &)`;
    const dry = await bash(dir, `${feed('cat a.jsonl')} ; $G dedup fifo --dry-run`);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout + dry.stderr).toMatch(/3 documents|documents\s+3/);
    const add = await bash(dir, `$G index create idx && ${feed('zcat a.jsonl.gz')} ; $G index add idx fifo`);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stderr).not.toMatch(/ESPIPE/);
    // Issue 40, item 7: dedup -o reads the FIFO (copied to a file first), where it refused it unopened, its writer
    // left blocked.
    const read = await bash(
      dir,
      `${feed('cat a.jsonl')} ; $G dedup fifo -o out.jsonl -q && $G dedup a.jsonl -o file.jsonl -q`,
    );
    expect(read.code, read.stderr).toBe(0);
    expect(readFileSync(join(dir, 'out.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'file.jsonl'), 'utf8'));
  });
});
