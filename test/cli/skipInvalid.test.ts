/**
 * --skip-invalid that skips every line (a misnamed text field; issue 40, item 9): refused in one line with the first
 * line's reason, exit 1 and no output written, where it ended well with empty outputs and no warning.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir, runCliHere } from '../support/cli.js';

describe('--skip-invalid that leaves no document', () => {
  it('dedup, sign, substrings (with and without --against), index create and query refuse it', async () => {
    const dir = tempDir();
    const corpus = join(dir, 'body.jsonl');
    writeFileSync(corpus, '{"id":"a","body":"one two three"}\n{"id":"b","body":"four five six"}\n');
    const good = join(dir, 'good.jsonl');
    writeFileSync(good, '{"id":"q","text":"one two three four five six seven"}\n');
    const made = await runCli(['index', 'create', join(dir, 'idx'), good, '-q']);
    expect(made.code, made.stderr).toBe(0);
    const out = (name: string): string => join(dir, name);
    const cases: Array<[string[], string]> = [
      [['dedup', corpus, '-o', out('d.jsonl'), '--backend', 'cpu'], 'd.jsonl'],
      [['sign', corpus, '-o', out('s.npy'), '--backend', 'cpu'], 's.npy'],
      [['substrings', corpus, '-o', out('x.jsonl')], 'x.jsonl'],
      [['substrings', corpus, '--against', good, '-o', out('c.jsonl')], 'c.jsonl'],
      [['index', 'create', out('new-idx'), corpus], 'new-idx'],
      [['query', join(dir, 'idx'), corpus, '-o', out('answers.jsonl')], 'answers.jsonl'],
    ];
    for (const [args, written] of cases) {
      const r = await runCliHere([...args, '--skip-invalid', '-q']);
      expect(r.code, args.join(' ')).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines, args.join(' ')).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^gpudedup: --skip-invalid skipped every line \(2 lines\) and no document is left; the first: .*body\.jsonl:1: missing text field "text" .*check --text-field/,
      );
      expect(existsSync(out(written)), written).toBe(false);
    }
  });
});
