/**
 * The answers the docs' query examples show (issue 39), from the built CLI on
 * the bundled corpus: README's containment lookup (36 licences, MIT-0
 * first), and docs/index.md's top 3 before and after a takedown. The docs'
 * commands test runs these lines; this one checks what they print.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir, runCliHere } from '../support/cli.js';

const CPU = ['--backend', 'cpu', '--threads', '1'];
const jsonl = (text: string): string => `${JSON.stringify({ id: 'q', text })}\n`;

/** One query's match ids, from `gpudedup query` run with `args`. */
async function matchIds(args: readonly string[], stdin?: string): Promise<string[]> {
  const ran = await runCli(['query', ...args, '-q'], stdin);
  expect(ran.stderr).toBe('');
  expect(ran.code).toBe(0);
  return (JSON.parse(ran.stdout) as { matches: { id: string; exact: number }[] }).matches.map((m) => m.id);
}

describe('the docs’ query examples answer what they show', () => {
  it('README: the sentence’s containment lookup finds the 36 licences that hold it, MIT-0 first', async () => {
    const dir = tempDir();
    const idx = join(dir, 'idx');
    const out = join(dir, 'indexed.jsonl');
    expect((await runCli(['index', 'create', idx, 'data/sample.jsonl.gz', '-o', out, '-q', ...CPU])).code).toBe(0);
    const sentence = jsonl('Permission is hereby granted, free of charge, to any person');
    expect(await matchIds([idx, '-'], sentence)).toEqual([]); // at the threshold: a sentence is no near-duplicate
    const held = await matchIds([idx, '-', '--containment', '0.8'], sentence);
    expect(held).toHaveLength(36);
    expect(held.slice(0, 3)).toEqual(['MIT-0', 'X11-no-permit-persons', 'BSL-1.0']);
  });

  it('docs/index.md: the top 3 of the MIT sentence, then without MIT-0 after its takedown', async () => {
    const dir = tempDir();
    const lines = gunzipSync(readFileSync('data/sample.jsonl.gz')).toString().split('\n');
    writeFileSync(join(dir, 'old.jsonl'), `${lines.slice(0, 400).join('\n')}\n`);
    writeFileSync(join(dir, 'new.jsonl'), lines.slice(400).join('\n'));
    const idx = join(dir, 'idx');
    for (const args of [
      ['index', 'create', idx, '--threshold', '0.8', '-k', '128'],
      ['index', 'add', idx, join(dir, 'old.jsonl'), '-o', join(dir, 'kept-old.jsonl'), ...CPU],
      ['index', 'add', idx, join(dir, 'new.jsonl'), '-o', join(dir, 'kept-new.jsonl'), ...CPU],
    ])
      expect((await runCliHere([...args, '-q'])).code).toBe(0);
    const q = join(dir, 'q.jsonl');
    writeFileSync(q, jsonl('Permission is hereby granted, free of charge, to any person obtaining a copy'));
    expect(await matchIds([idx, q, '--top', '3', ...CPU])).toEqual(['MIT-0', 'Clips', 'MIT-feh']);
    writeFileSync(join(dir, 'takedown.txt'), 'MIT-0\n');
    expect((await runCli(['index', 'remove', idx, '--ids', join(dir, 'takedown.txt'), '-q'])).code).toBe(0);
    expect(await matchIds([idx, q, '--top', '3', ...CPU])).toEqual(['Clips', 'MIT-feh', 'JSON']);
  });
});
