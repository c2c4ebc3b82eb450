/**
 * A right-to-left override (U+202E) in a file or folder name (issue 40, item 14) is isolated wherever the page names
 * it: the status and error lines of the dedup, span and index sections, the skipped notes and the index folder's
 * summary. Each such line holds the name in a `<bdi>`, and none of the page's own text around it holds a direction
 * control that could reverse it. In Debian's Chromium, on the CPU path.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runCliHere } from '../support/cli.js';
import { tempDir } from '../support/tempDirs.js';
import { seriousViolations } from './browser.js';
import { press, useTab } from './tabFixture.js';

const tab = useTab();
const root = tempDir();
const RLO = '\u202e';

/** Whether `selector`'s text names the user's text only inside `<bdi>`: [a bdi holds U+202E, none outside does]. */
async function isolated(page: Page, selector: string): Promise<[boolean, boolean]> {
  return page.locator(selector).evaluate((element, rlo) => {
    const inBdi = Array.from(element.querySelectorAll('bdi')).some((b) => b.textContent!.includes(rlo));
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    let outside = false;
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode())
      if (node.parentElement?.closest('bdi') === null && node.textContent!.includes(rlo)) outside = true;
    return [inBdi, outside] as [boolean, boolean];
  }, RLO);
}

describe('file and folder names with U+202E', () => {
  it('are isolated in the three sections, the skipped notes and the index summary', async () => {
    const bad = join(root, `${RLO}evil.jsonl`);
    writeFileSync(bad, '{"id":"a","text":"one two three four five six"}\n{"id":"b","text":\n');
    const good = join(root, 'good.jsonl');
    const lines = Array.from({ length: 20 }, (_, i) =>
      JSON.stringify({ id: `d${i}`, text: `w${i} one two three four` }),
    );
    writeFileSync(good, `${lines.join('\n')}\n`);
    const blob = join(root, `${RLO}blob.txt`);
    writeFileSync(blob, Buffer.from([0, 1, 2, 0, 0, 0xff, 0xfe, 0, 7, 0]));
    const folder = join(root, `${RLO}index`);
    mkdirSync(folder);
    const made = await runCliHere(['index', 'create', join(folder, 'idx'), good, '-q']);
    expect(made.code, made.stderr).toBe(0);

    const page = await tab.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    try {
      await page.goto(`${tab.origin}/`);
      await page.setInputFiles('#files', [bad]);
      expect(await press(page, '#run', '#status')).toMatch(/evil\.jsonl:2/);
      expect(await isolated(page, '#status')).toEqual([true, false]);
      expect(await press(page, '#find-spans', '#spans-status')).toMatch(/evil\.jsonl:2/);
      expect(await isolated(page, '#spans-status')).toEqual([true, false]);

      await page.setInputFiles('#index-dir', join(folder, 'idx'));
      expect(await press(page, '#check-index', '#index-status')).toMatch(/evil\.jsonl:2/);
      expect(await isolated(page, '#index-status')).toEqual([true, false]);
      expect(await seriousViolations(page)).toEqual([]); // the three error states, axe-clean

      await page.setInputFiles('#files', [good, blob]);
      expect(await press(page, '#run', '#status')).toMatch(/^Done/);
      expect(await page.textContent('#skipped')).toContain('blob.txt');
      expect(await isolated(page, '#skipped')).toEqual([true, false]);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  }, 300_000);

  it('the index folder summary isolates the folder name', async () => {
    const folder = join(root, `${RLO}idx-folder`);
    const good = join(root, 'small.jsonl');
    writeFileSync(good, '{"id":"a","text":"one two three four five six"}\n');
    const made = await runCliHere(['index', 'create', folder, good, '-q']);
    expect(made.code, made.stderr).toBe(0);
    const page = await tab.newPage();
    try {
      await page.goto(`${tab.origin}/`);
      await page.setInputFiles('#index-dir', folder);
      await page.waitForFunction(() => !document.getElementById('index-summary')!.textContent!.startsWith('No index'));
      expect(await isolated(page, '#index-summary')).toEqual([true, false]);
    } finally {
      await page.close();
    }
  }, 120_000);
});
