/**
 * Choosing new files (issue 40, item 16) takes the last run's counts and download links off the page, in the dedup,
 * span and index sections (they were another corpus's, shown unmarked), and clears the status line that described
 * them; axe-clean after. In Debian's Chromium, on the CPU path.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliHere } from '../support/cli.js';
import { tempDir } from '../support/tempDirs.js';
import { seriousViolations } from './browser.js';
import { press, useTab } from './tabFixture.js';

const tab = useTab();
const root = tempDir();

const P = 'a paragraph long enough to be found again by the span search, word for word, in two documents';

describe('new files take the last results off the page', () => {
  it('in the dedup, span and index sections', async () => {
    const first = join(root, 'first.jsonl');
    const lines = [
      { id: 'a', text: `one ${P}` },
      { id: 'b', text: `two ${P}` },
      ...Array.from({ length: 10 }, (_, i) => ({ id: `d${i}`, text: `w${i} alpha beta gamma delta epsilon` })),
    ];
    writeFileSync(first, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const second = join(root, 'second.jsonl');
    writeFileSync(second, '{"id":"x","text":"something else entirely"}\n');
    const index = join(root, 'idx');
    const made = await runCliHere(['index', 'create', index, first, '-q']);
    expect(made.code, made.stderr).toBe(0);

    const page = await tab.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    try {
      await page.goto(`${tab.origin}/`);
      await page.setInputFiles('#files', [first]);
      expect(await press(page, '#run', '#status')).toMatch(/^Done/);
      await page.fill('#min-length', '40');
      expect(await press(page, '#find-spans', '#spans-status')).not.toBe('');
      await page.setInputFiles('#index-dir', index);
      expect(await press(page, '#check-index', '#index-status')).toMatch(/^Checked/);
      for (const id of ['#results', '#spans-results', '#index-results'])
        expect(await page.isHidden(id), `${id} shown after its run`).toBe(false);
      expect(await page.getAttribute('#download-kept', 'href')).not.toBeNull();

      await page.setInputFiles('#files', [second]);
      for (const id of ['#results', '#spans-results', '#index-results'])
        expect(await page.isHidden(id), `${id} after new files`).toBe(true);
      expect(await page.getAttribute('#download-kept', 'href')).toBeNull();
      for (const id of ['#status', '#spans-status', '#index-status']) expect(await page.textContent(id), id).toBe('');
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  }, 300_000);
});

describe('leaving mid-search or mid-check asks first (issue 40, item 17)', () => {
  it('a span search and an index check under way hold the page; after them, leaving asks nothing', async () => {
    const corpus = join(root, 'leave.jsonl');
    const lines = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({ id: `d${i}`, text: `${P} ${i} ${'w'.repeat(i % 50)} alpha beta gamma delta ${i * 7}` }),
    );
    writeFileSync(corpus, `${lines.join('\n')}\n`);
    const index = join(root, 'leave-idx');
    const made = await runCliHere(['index', 'create', index, corpus, '-q']);
    expect(made.code, made.stderr).toBe(0);
    const page = await tab.newPage();
    try {
      await page.goto(`${tab.origin}/`);
      await page.setInputFiles('#files', [corpus]);
      await page.setInputFiles('#index-dir', index);
      // Pressed and asked in one task of the page: the search or check has only just started.
      const heldBy = (button: string) =>
        page.evaluate((id) => {
          document.getElementById(id)!.click();
          return !window.dispatchEvent(new Event('beforeunload', { cancelable: true }));
        }, button);
      expect(await heldBy('find-spans')).toBe(true);
      await page.waitForFunction(
        () => Number(document.getElementById('spans-status')!.dataset.settled ?? 0) > 0,
        null,
        {
          timeout: 120_000,
        },
      );
      expect(await heldBy('check-index')).toBe(true);
      await page.waitForFunction(
        () => Number(document.getElementById('index-status')!.dataset.settled ?? 0) > 0,
        null,
        {
          timeout: 120_000,
        },
      );
      expect(await page.evaluate(() => window.dispatchEvent(new Event('beforeunload', { cancelable: true })))).toBe(
        true,
      );
    } finally {
      await page.close();
    }
  }, 300_000);
});
