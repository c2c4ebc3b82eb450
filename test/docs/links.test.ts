/**
 * The docs point at what exists: every relative link of README.md and docs/*.md names a file of the repository
 * (and, with `#anchor`, one of its headings, as GitHub makes their anchors), and every source path they mention
 * (`src/…`, `test/…`, `bench/…`, `scripts/…`, `web/…`, `shaders/…`) is there, so a moved file cannot leave the docs
 * behind.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { expect, it } from 'vitest';
import { docFiles } from './docBlocks.js';

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#+ (.+)$/gm)].map((m) => anchorOf(m[1])));
}

/** Text outside fenced blocks (commands there name files they write). */
const prose = (file: string): string => readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');

it('every relative link names a file that exists, and a heading of it', () => {
  const broken: string[] = [];
  for (const file of docFiles()) {
    for (const [, target] of prose(file).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
      const [path, anchor] = target.split('#');
      const resolved = path === '' ? file : normalize(join(dirname(file), path));
      if (!existsSync(resolved)) {
        broken.push(`${file}: ${target} (no ${resolved})`);
      } else if (anchor !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) {
        broken.push(`${file}: ${target} (no heading #${anchor} in ${resolved})`);
      }
    }
  }
  expect(broken).toEqual([]);
});

it('every source path the docs mention exists', () => {
  const missing: string[] = [];
  for (const file of docFiles()) {
    const paths = prose(file).matchAll(/(?<![\w./-])((?:src|test|bench|scripts|web|shaders)\/[\w./-]*\w)/g);
    for (const [, path] of paths) {
      // A path with a placeholder or a glob (`seg-*.docs.parquet`, `part-00000`) is a pattern, not a file.
      if (!existsSync(path) && !existsSync(path.replace(/\.js$/, '.ts'))) missing.push(`${file}: ${path}`);
    }
  }
  expect([...new Set(missing)]).toEqual([]);
});
