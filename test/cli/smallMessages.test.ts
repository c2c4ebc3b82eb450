/**
 * Small messages a new user met (issue 40, item 12): a containment share as a percentage, `index add --matches F` not
 * shown as its output, "1 round" and counts with thousands separators, a missing corpus said before "nothing to
 * write", and no library function named in a command line's message.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runCliHere, tempDir } from '../support/cli.js';

const TEXT = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma';

function corpus(dir: string): string {
  const path = join(dir, 'in.jsonl');
  const lines = [
    { id: 'a', text: TEXT },
    { id: 'b', text: `${TEXT} tau` },
    { id: 'c', text: 'something else entirely, with words of its own and nothing in common' },
  ];
  writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return path;
}

describe('small messages', () => {
  it('dedup --containment 1 says "≥ 100 %"; index add --matches F is not shown as its output', async () => {
    const dir = tempDir();
    const input = corpus(dir);
    const ref = join(dir, 'ref.jsonl');
    writeFileSync(ref, `${JSON.stringify({ id: 'r', text: TEXT })}\n`);
    const args = ['dedup', input, '--against', ref, '--containment', '1.0', '-o', join(dir, 'o.jsonl')];
    const contained = await runCli([...args, '--backend', 'cpu']);
    expect(contained.code, contained.stderr).toBe(0);
    expect(contained.stdout).toMatch(/each holds ≥ 100 % of a reference document's shingles/);
    const made = await runCli(['index', 'create', join(dir, 'idx'), '-q']);
    expect(made.code, made.stderr).toBe(0);
    const added = await runCli(['index', 'add', join(dir, 'idx'), input, '--matches', join(dir, 'm.csv')]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout.split('\n')[0]).toMatch(/^indexed 3 documents into \S+idx$/);
  });

  it('substrings says "1 round" and "1 repeated span"; a missing corpus comes before "nothing to write"', async () => {
    const dir = tempDir();
    const input = corpus(dir);
    const r = await runCliHere(['substrings', input, '--report', join(dir, 'r.json'), '--min-length', '20']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/windows in 1 round on 1 thread,/);
    expect(r.stdout).toMatch(/ 1 repeated span of ≥ 20 bytes \(\d+ bytes\)/);
    for (const command of ['substrings', 'dedup']) {
      const missing = await runCliHere([command, join(dir, 'missing.jsonl')]);
      expect(missing.code).not.toBe(0);
      expect(missing.stderr.trim()).toBe(`gpudedup: ${join(dir, 'missing.jsonl')}: no such file or directory`);
    }
  });

  it('a directory that is not an index is said in the command line words, not the library function', async () => {
    const dir = tempDir();
    const input = corpus(dir);
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    for (const args of [
      ['index', 'add', empty, input],
      ['query', empty, input],
      ['index', 'stats', empty],
    ]) {
      const r = await runCliHere(args);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stderr.trim()).toBe(
        `gpudedup: ${empty} is not an index (no manifest.json): create one with gpudedup index create ${empty}`,
      );
    }
  });
});
