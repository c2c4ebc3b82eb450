/**
 * "Check against a saved index" in a real browser (Debian's Chromium,
 * headless, the Vite build of web/ served from 127.0.0.1): an index made by
 * the CLI (`gpudedup index create`), its folder picked in the tab, files
 * checked against it; the tab's JSON Lines equal `gpudedup query DIR FILE`'s
 * byte for byte — for an index with default settings and for one whose
 * settings differ from the form's (the tab signs with the index's own).
 * A folder that is not an index, or an index of another format version, is
 * refused with one line naming it. axe finds no serious violation.
 *
 * Without /usr/bin/chromium the tests skip with a hint (under CI they fail).
 * WebGPU is not needed: the tab signs queries on the CPU (wasm).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../src/lshIndex/crc32.js';
import { runCliHere } from '../support/cli.js';
import { tempDir } from '../support/tempDirs.js';
import { REPO, seriousViolations } from './browser.js';
import { press, useTab } from './tabFixture.js';

const tab = useTab();
const root = tempDir();

/** The sample's documents (license texts: many near-duplicates), and variants of some (a word changed), and two without an id. */
function queryCorpus(): string {
  const sample = gunzipSync(readFileSync(join(REPO, 'data/sample.jsonl.gz')))
    .toString('utf8')
    .trim()
    .split('\n');
  const docs = sample.slice(0, 300).map((line) => JSON.parse(line) as { id: string; text: string });
  const variants = docs
    .filter((_, i) => i % 7 === 0)
    .map((d) => ({ id: `${d.id}-variant`, text: d.text.replace(/\b(the|The)\b/, 'a') }));
  const lines = [...docs.map((d) => ({ id: d.id, text: d.text })), ...variants].map((d) => JSON.stringify(d));
  lines.push(JSON.stringify({ text: 'a document with no id of its own, about nothing in the index at all' }));
  lines.push(JSON.stringify({ text: docs[3].text }));
  return lines.join('\n') + '\n';
}

/** Picks the folder and files, presses Check, and waits for the check to settle; its status text. */
async function check(page: Page, folder: string, files: string[]): Promise<string> {
  await page.setInputFiles('#files', files);
  await page.setInputFiles('#index-dir', folder);
  return press(page, '#check-index', '#index-status');
}

async function download(page: Page, link: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(link)]);
  return readFile(await file.path(), 'utf8');
}

describe('the tab checks files against a saved index', () => {
  it("gives gpudedup query's JSON Lines, line for line, with the index's own settings", async () => {
    const corpus = join(root, 'check.jsonl');
    writeFileSync(corpus, queryCorpus());
    const page = await tab.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await page.goto(`${tab.origin}/`);
    // The form stays at its defaults (threshold 0.8, k 128, word 5-grams…): the second index differs in each.
    const settings: [string, string[]][] = [
      ['default', []],
      [
        'other',
        ['--threshold', '0.5', '--k', '64', '--shingle', 'char', '--ngram', '7', '--verify', 'estimate', '--seed', '7'],
      ],
    ];
    for (const [name, flags] of settings) {
      const dir = join(root, `index-${name}`);
      const created = await runCliHere([
        'index',
        'create',
        dir,
        join(REPO, 'data/sample.jsonl.gz'),
        '--quiet',
        ...flags,
      ]);
      expect(created.code, created.stderr).toBe(0);
      const queried = await runCliHere(['query', dir, corpus, '--quiet']);
      expect(queried.code, queried.stderr).toBe(0);
      const cli = queried.stdout;
      const lines = cli
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: string; matches: { id: string }[] });
      expect(lines.length).toBe(queryCorpus().trim().split('\n').length);
      expect(lines.filter((l) => l.matches.length > 0).length).toBeGreaterThan(50); // a test that can fail: matches there are
      expect(lines.some((l) => l.matches.length === 0)).toBe(true);

      const status = await check(page, dir, [corpus]);
      expect(status, name).toMatch(
        new RegExp(
          `^Checked ${lines.length} documents against [\\d,]+ indexed documents \\(threshold ${name === 'default' ? '0.8' : '0.5'}\\): [\\d,]+ documents? with a match\\.$`,
        ),
      );
      expect(await download(page, '#download-matches'), name).toBe(cli);
      // The table, in pages of 50 rows: a row per match, or one "no match" row, per document.
      let rows = await page.locator('#index-table tbody tr').count();
      while (await page.isEnabled('#index-next')) {
        await page.click('#index-next');
        rows += await page.locator('#index-table tbody tr').count();
      }
      expect(rows).toBe(lines.reduce((n, l) => n + Math.max(1, l.matches.length), 0));
      while (await page.isEnabled('#index-previous')) await page.click('#index-previous'); // back to the first page
      const first = lines.find((l) => l.matches.length > 0)!;
      expect(
        await page.locator('#index-table tbody tr').filter({ hasText: first.matches[0].id }).count(),
      ).toBeGreaterThan(0);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousViolations(page), 'dark colour scheme').toEqual([]);
    // Nothing left the tab: only the page's own files, and blob: downloads.
    expect(
      requests.filter((url) => !url.startsWith(`${tab.origin}/`) && !url.startsWith(`blob:${tab.origin}/`)),
    ).toEqual([]);
    await page.close();
  }, 300_000);

  it('asks for the top K or containment as gpudedup query --top/--containment does, line for line; refuses a bad K', async () => {
    const corpus = join(root, 'questions.jsonl');
    writeFileSync(corpus, queryCorpus());
    const dir = join(root, 'index-questions');
    const created = await runCliHere(['index', 'create', dir, join(REPO, 'data/sample.jsonl.gz'), '--quiet']);
    expect(created.code, created.stderr).toBe(0);
    const page = await tab.newPage();
    await page.goto(`${tab.origin}/`);
    for (const [kind, value, flags, label] of [
      ['top', '3', ['--top', '3'], 'top 3'],
      ['containment', '0.8', ['--containment', '0.8'], 'containment ≥ 0.8'],
    ] as const) {
      const queried = await runCliHere(['query', dir, corpus, '--quiet', ...flags]);
      expect(queried.code, queried.stderr).toBe(0);
      const lines = queried.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { matches: object[] });
      expect(lines.filter((l) => l.matches.length > 0).length).toBeGreaterThan(20);
      await page.selectOption('#index-question', kind);
      await page.fill('#index-question-value', value);
      const status = await check(page, dir, [corpus]);
      expect(status).toContain(`(${label})`);
      expect(await download(page, '#download-matches'), kind).toBe(queried.stdout);
    }
    await page.selectOption('#index-question', 'top');
    await page.fill('#index-question-value', '0');
    expect(await check(page, dir, [corpus])).toBe(
      '“K (the most similar indexed documents)” must be an integer from 1 to 10000, got 0.',
    );
    expect(await page.getAttribute('#index-question-value', 'aria-invalid')).toBe('true');
    await page.close();
  }, 300_000);

  it('refuses a folder that is not an index, or an index of another format version, in one line naming it; Stop checking stops at once', async () => {
    const page = await tab.newPage();
    await page.goto(`${tab.origin}/`);
    const corpus = join(root, 'small.jsonl');
    writeFileSync(corpus, '{"id":"a","text":"one two three four five six seven"}\n');
    const notIndex = join(root, 'notes');
    mkdirSync(notIndex);
    writeFileSync(join(notIndex, 'readme.txt'), 'not an index');
    expect(await check(page, notIndex, [corpus])).toBe(
      'notes is not an index: it has no manifest.json. Choose the folder that gpudedup index create made.',
    );
    expect(await page.getAttribute('#index-status', 'role')).toBe('alert');

    const v2 = join(root, 'future');
    const created = await runCliHere(['index', 'create', v2, corpus, '--quiet']);
    expect(created.code, created.stderr).toBe(0);
    const { checksum: _, ...manifest } = JSON.parse(readFileSync(join(v2, 'manifest.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const next = { ...manifest, version: 2 };
    writeFileSync(
      join(v2, 'manifest.json'),
      JSON.stringify(
        { ...next, checksum: { crc32: crc32(new TextEncoder().encode(JSON.stringify(next, null, 1))) } },
        null,
        1,
      ),
    );
    expect(await check(page, v2, [corpus])).toBe(
      'future is a gpudedup index with format version 2: this gpudedup reads version 1',
    );
    expect(await page.isHidden('#index-results')).toBe(true);

    // Stopping a check: at once, the button back, no results; the next check runs as before.
    const large = join(root, 'large.jsonl');
    const lines = queryCorpus()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id?: string; text: string });
    writeFileSync(
      large,
      Array.from({ length: 4 }, (_, copy) =>
        lines.map((d, i) => JSON.stringify({ id: `${copy}-${i}`, text: d.text })).join('\n'),
      ).join('\n') + '\n',
    );
    const index = join(root, 'index-stop');
    expect((await runCliHere(['index', 'create', index, join(REPO, 'data/sample.jsonl.gz'), '--quiet'])).code).toBe(0);
    const settled = Number((await page.getAttribute('#index-status', 'data-settled')) ?? 0);
    await page.setInputFiles('#files', [large]);
    await page.setInputFiles('#index-dir', index);
    await page.click('#check-index');
    await page.click('#stop-check');
    expect(Number(await page.getAttribute('#index-status', 'data-settled'))).toBe(settled + 1);
    expect(await page.textContent('#index-status')).toBe(
      'Stopped. The index and files are unchanged; press Check against the index to run again.',
    );
    expect(await page.isEnabled('#check-index')).toBe(true);
    expect(await page.isHidden('#stop-check')).toBe(true);
    expect(await page.isHidden('#index-results')).toBe(true);
    expect(await check(page, index, [corpus])).toMatch(/^Checked 1 document against/);
    await page.close();
  }, 180_000);
});
