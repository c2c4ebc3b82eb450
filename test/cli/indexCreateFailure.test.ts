/**
 * A failed `index create DIR CORPUS` (issue 40, item 8): a write that fails (a full disk; here a file-size limit, as
 * `ulimit -f` sets, EFBIG) leaves no index behind, so the same command runs again; its message is `file: reason (CODE,
 * op)`, as every other command words a system call's failure.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, tempDir } from '../support/cli.js';

/** Enough distinct documents for the index's segment to pass a 64 KiB limit. */
function corpus(dir: string): string {
  const path = join(dir, 'corpus.jsonl');
  const lines = Array.from({ length: 3000 }, (_, i) =>
    JSON.stringify({
      id: `d${i}`,
      text: Array.from({ length: 30 }, (_, w) => `w${(i * 31 + w * 7) % 9973}`).join(' '),
    }),
  );
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** The CLI under bash with writes past 64 KiB failing (SIGXFSZ ignored, so the write returns EFBIG). */
function limited(dir: string, args: string): { status: number | null; stderr: string } {
  const run = spawnSync('bash', ['-c', `trap '' XFSZ; ulimit -f 64; "${process.execPath}" "${CLI}" ${args}`], {
    cwd: dir,
    encoding: 'utf8',
  });
  return { status: run.status, stderr: run.stderr };
}

describe('index create that fails while writing', () => {
  it('leaves no index (a new directory removed, an empty one emptied), says file: reason (CODE, op)', () => {
    const dir = tempDir();
    corpus(dir);
    for (const target of ['fresh', 'empty']) {
      if (target === 'empty') mkdirSync(join(dir, 'empty'));
      const failed = limited(dir, `index create ${target} corpus.jsonl -q`);
      expect(failed.status, failed.stderr).toBe(1);
      const lines = failed.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^gpudedup: ${target}/\\S+: file too large \\(EFBIG, write\\)$`));
      if (target === 'fresh') expect(existsSync(join(dir, 'fresh'))).toBe(false);
      else expect(readdirSync(join(dir, 'empty'))).toEqual([]);
      const again = spawnSync(process.execPath, [CLI, 'index', 'create', target, 'corpus.jsonl', '-q'], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(again.status, again.stderr).toBe(0);
      expect(readdirSync(join(dir, target))).toContain('manifest.json');
    }
  });
});
