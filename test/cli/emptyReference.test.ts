/**
 * An empty reference set is refused (issue 40, item 17), by `dedup --against`, the library's `dedup` and (through the
 * same core, src/dedup/signPass.ts) the tab, as `substrings --against` refuses one: it would remove nothing and say
 * nothing of it. No output is written.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dedup } from '../../src/api.js';
import { runCli, tempDir } from '../support/cli.js';

const refusal = /--against holds no document \(its files are empty, or were skipped\)/;

describe('an empty reference set', () => {
  it('is refused by dedup --against in one line, nothing written', async () => {
    const dir = tempDir();
    const corpus = join(dir, 'corpus.jsonl');
    writeFileSync(corpus, '{"id":"a","text":"one two three four five six"}\n{"id":"b","text":"seven eight nine"}\n');
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const out = join(dir, 'kept.jsonl');
    const result = await runCli(['dedup', corpus, '--against', empty, '-o', out, '-q', '--backend', 'cpu']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(refusal);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
  });

  it('is refused by the library', async () => {
    await expect(dedup(['one two three four five six'], { against: [], backend: 'cpu' })).rejects.toThrow(refusal);
  });
});
