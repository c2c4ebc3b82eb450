/**
 * The tab's index check decides as `gpudedup query` (issue 40, item 15): a binary or empty file it does not read is
 * named in its status (it said "Checked 0 documents" and nothing more), and a binary-looking .jsonl fails on its first
 * line as the CLI's reader fails. In Debian's Chromium, on the CPU path.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runCliHere } from '../support/cli.js';
import { tempDir } from '../support/tempDirs.js';
import { seriousViolations } from './browser.js';
import { press, useTab } from './tabFixture.js';

const tab = useTab();
const root = tempDir();

async function check(page: Page, files: string[]): Promise<string> {
  await page.setInputFiles('#files', files);
  return press(page, '#check-index', '#index-status');
}

describe('the index check names what it does not read', () => {
  it('binary and empty files are named; a binary .jsonl fails as the CLI fails', async () => {
    const good = join(root, 'good.jsonl');
    writeFileSync(good, '{"id":"a","text":"one two three four five six seven"}\n');
    const index = join(root, 'idx');
    const made = await runCliHere(['index', 'create', index, good, '-q']);
    expect(made.code, made.stderr).toBe(0);
    const blob = join(root, 'blob.bin');
    writeFileSync(blob, Buffer.from([0, 1, 2, 0, 0, 0xff, 0xfe, 0, 7, 0]));
    const empty = join(root, 'empty.txt');
    writeFileSync(empty, '');
    const blobLines = join(root, 'blob.jsonl');
    writeFileSync(blobLines, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)));

    const page = await tab.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    try {
      await page.goto(`${tab.origin}/`);
      await page.setInputFiles('#index-dir', index);
      const status = await check(page, [blob, empty]);
      expect(status).toMatch(/^Checked 0 documents .* Not read: blob\.bin: looks binary .*skipped; empty\.txt: empty/);
      expect(await seriousViolations(page)).toEqual([]);
      const cli = await runCliHere(['query', index, blobLines]);
      expect(cli.code).toBe(1);
      expect(cli.stderr).toMatch(/blob\.jsonl:1: malformed JSON/);
      expect(await check(page, [blobLines])).toMatch(/^blob\.jsonl:1: malformed JSON/);
    } finally {
      await page.close();
    }
  }, 300_000);
});

describe('the index results table pages by rows (issue 40, item 13)', () => {
  it('documents with ten matches each: 50 rows a page, not 50 documents', async () => {
    const corpus = join(root, 'thirty.jsonl');
    const lines = Array.from({ length: 30 }, (_, i) =>
      JSON.stringify({ id: `d${i}`, text: `w${i} alpha beta gamma delta epsilon zeta eta theta iota kappa` }),
    );
    writeFileSync(corpus, `${lines.join('\n')}\n`);
    const index = join(root, 'idx30');
    const made = await runCliHere(['index', 'create', index, corpus, '--all', '-q']);
    expect(made.code, made.stderr).toBe(0);
    const page = await tab.newPage();
    try {
      await page.goto(`${tab.origin}/`);
      await page.setInputFiles('#index-dir', index);
      await page.selectOption('#index-question', 'top');
      await page.fill('#index-question-value', '10');
      expect(await check(page, [corpus])).toMatch(/^Checked 30 documents/);
      expect(await page.locator('#index-table tbody tr').count()).toBe(50);
      expect(await page.textContent('#index-page')).toBe('Rows 1–50 of 300 (page 1 of 6)');
      await page.click('#index-next');
      expect(await page.textContent('#index-page')).toBe('Rows 51–100 of 300 (page 2 of 6)');
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  }, 300_000);
});

describe('a folder picked one level above the index (issue 40, item 17)', () => {
  it('says it holds an index further down, and which, instead of "No index chosen"', async () => {
    const parent = join(root, 'parent');
    const good = join(root, 'one.jsonl');
    writeFileSync(good, '{"id":"a","text":"one two three four five six"}\n');
    const made = await runCliHere(['index', 'create', join(parent, 'idx'), good, '-q']);
    expect(made.code, made.stderr).toBe(0);
    const page = await tab.newPage();
    try {
      await page.goto(`${tab.origin}/`);
      await page.setInputFiles('#index-dir', parent);
      await page.waitForFunction(() => !document.getElementById('index-summary')!.textContent!.startsWith('No index'));
      expect(await page.textContent('#index-summary')).toBe(
        'parent is not an index itself; it holds one in parent/idx: choose that folder.',
      );
      expect(await check(page, [good])).toBe(
        'parent is not an index itself; it holds one in parent/idx: choose that folder.',
      );
    } finally {
      await page.close();
    }
  }, 120_000);
});
