/**
 * The tab's index check decides as `gpudedup query` (issue 40, item 15): a binary or empty file it does not read is
 * named in its status (it said "Checked 0 documents" and nothing more), and a binary-looking .jsonl fails on its first
 * line as the CLI's reader fails. In Debian's Chromium, on the CPU path.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/tempDirs.js';
import { seriousViolations } from './browser.js';
import { useTab } from './tabFixture.js';

const tab = useTab();
const root = tempDir();

async function check(page: Page, files: string[]): Promise<string> {
  const settled = Number((await page.getAttribute('#index-status', 'data-settled')) ?? 0);
  await page.setInputFiles('#files', files);
  await page.click('#check-index');
  await page.waitForFunction(
    (n) => Number(document.getElementById('index-status')!.dataset.settled ?? 0) > n,
    settled,
    { timeout: 120_000 },
  );
  return (await page.textContent('#index-status')) ?? '';
}

describe('the index check names what it does not read', () => {
  it('binary and empty files are named; a binary .jsonl fails as the CLI fails', async () => {
    const good = join(root, 'good.jsonl');
    writeFileSync(good, '{"id":"a","text":"one two three four five six seven"}\n');
    const index = join(root, 'idx');
    const made = await runCli(['index', 'create', index, good, '-q']);
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
      const cli = await runCli(['query', index, blobLines]);
      expect(cli.code).toBe(1);
      expect(cli.stderr).toMatch(/blob\.jsonl:1: malformed JSON/);
      expect(await check(page, [blobLines])).toMatch(/^blob\.jsonl:1: malformed JSON/);
    } finally {
      await page.close();
    }
  }, 300_000);
});
