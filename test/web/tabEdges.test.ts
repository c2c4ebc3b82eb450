/**
 * The tab at its edges (issue 31, items 11, 14, 15), in Debian's Chromium
 * (no WebGPU needed: the CPU path): a text file or a JSON line past the
 * longest string is refused naming the file and the limit (real files one
 * byte past it: Chromium's TextDecoder returned "" there, an empty document);
 * an id holding U+202E does not reverse the page's words after it; the time
 * per stage adds up to the run (shingling and signing are not stages) and
 * report.json has both the signing split and `writing`; two files of one
 * name are refused up front; the index results table pages, wraps long ids
 * at 1280 px, passes axe, and its errors look like errors.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MAX_STRING_LENGTH } from '../../src/io/stringLimit.js';
import { runCliHere } from '../support/cli.js';
import { tempDir } from '../support/tempDirs.js';
import { REPO, seriousViolations } from './browser.js';
import { useTab } from './tabFixture.js';

const tab = useTab();
const root = tempDir();

async function openPage(): Promise<Page> {
  const page = await tab.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  await page.goto(`${tab.origin}/`);
  return page;
}

async function clickDedup(page: Page, timeout = 120_000): Promise<string> {
  const before = (await page.getAttribute('#status', 'data-settled')) ?? '0';
  await page.getByRole('button', { name: 'Dedup' }).click();
  await page.waitForFunction((n) => (document.getElementById('status')!.dataset.settled ?? '0') !== n, before, {
    timeout,
  });
  return (await page.textContent('#status')) ?? '';
}

async function download(page: Page, link: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(link)]);
  return readFile(await file.path(), 'utf8');
}

const RLO = '\u202e';
const words = (seed: number, n: number): string =>
  Array.from({ length: n }, (_, i) => `w${(seed * 7919 + i * 104729) % 5000}`).join(' ');

describe('the tab refuses text past the longest string, naming the file and the limit', () => {
  it('a text file and a JSON line one byte past 2^29 − 24 characters (real files): refused, not an empty document', async () => {
    const text = join(root, 'big.txt');
    writeFileSync(text, Buffer.alloc(MAX_STRING_LENGTH + 1, 'word '));
    const page = await openPage();
    try {
      await page.setInputFiles('#files', [text]);
      expect(await clickDedup(page, 240_000)).toBe(
        'big.txt: this file, one document, is 536,870,889 bytes, more text than one JavaScript string holds (536,870,888 UTF-16 code units, about 512 MiB): split it into smaller documents',
      );
      expect(await page.locator('#results').isHidden()).toBe(true);
      rmSync(text);
      const jsonl = join(root, 'big.jsonl');
      const head = '{"id":"a","text":"';
      const line = Buffer.alloc(MAX_STRING_LENGTH + 1, 'word ');
      line.write(head, 0);
      line.write('"}', line.length - 2);
      writeFileSync(jsonl, Buffer.concat([line, Buffer.from('\n{"id":"b","text":"small"}\n')]));
      await page.setInputFiles('#files', [jsonl]);
      expect(await clickDedup(page, 240_000)).toMatch(
        /^big\.jsonl:1: this line is 536,870,89\d bytes, more text than one JavaScript string holds \(536,870,888 UTF-16 code units/,
      );
      rmSync(jsonl);
    } finally {
      await page.close();
    }
  }, 600_000);
});

describe('the tab: results', () => {
  it('an id with U+202E keeps the words after it in order; the time per stage adds up; report.json has signing and writing', async () => {
    const base = words(1, 80);
    const lines = [
      { id: `${RLO}evil`, text: base },
      { id: 'twin', text: `${base} extra` },
      ...Array.from({ length: 30 }, (_, i) => ({ id: `d${i}`, text: words(i + 2, 60) })),
    ];
    const file = join(root, 'rlo.jsonl');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const page = await openPage();
    try {
      await page.setInputFiles('#files', [file]);
      expect(await clickDedup(page)).toMatch(/^Done/);
      await page
        .getByRole('button', { name: /^Inspect cluster/ })
        .first()
        .click();
      const heading = page.locator('#members-heading');
      await heading.waitFor();
      expect(await heading.textContent()).toContain('kept');
      const edges = await heading.evaluate((element) => {
        const node = Array.from(element.childNodes)
          .reverse()
          .find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.includes('kept'))!;
        const at = node.textContent!.lastIndexOf('kept');
        return [...'kept'].map((_, i) => {
          const range = document.createRange();
          range.setStart(node, at + i);
          range.setEnd(node, at + i + 1);
          return range.getBoundingClientRect().left;
        });
      });
      expect(
        edges.every((x, i) => i === 0 || x > edges[i - 1]),
        `"kept" left to right: ${edges.join(', ')}`,
      ).toBe(true);

      const stages = await page
        .locator('#timings tbody tr')
        .evaluateAll((rows) =>
          rows.map(
            (r) =>
              [
                (r as HTMLTableRowElement).cells[0].textContent!,
                Number((r as HTMLTableRowElement).cells[1].textContent),
              ] as const,
          ),
        );
      const names = stages.map(([name]) => name);
      expect(names).not.toContain('shingling');
      expect(names).not.toContain('signing');
      expect(names).toContain('writing');
      const total = stages.at(-1)!;
      expect(total[0]).toBe('total');
      const sum = stages.slice(0, -1).reduce((s, [, seconds]) => s + seconds, 0);
      expect(Math.abs(total[1] - sum)).toBeLessThanOrEqual(0.01 * stages.length);

      const report = JSON.parse(await download(page, '#download-report')) as {
        seconds: Record<string, number>;
        signingSeconds: { shingling: number; signing: number };
      };
      expect(Object.keys(report.seconds)).toContain('writing');
      expect(Object.keys(report.seconds)).not.toContain('shingling');
      expect(report.signingSeconds.shingling + report.signingSeconds.signing).toBeGreaterThan(0);
    } finally {
      await page.close();
    }
  }, 180_000);

  it('two picked files of one name are refused before any work, saying why', async () => {
    const a = join(root, 'a');
    const b = join(root, 'b');
    mkdirSync(a);
    mkdirSync(b);
    writeFileSync(join(a, 'part.jsonl'), '{"text":"one two three four five six"}\n');
    writeFileSync(join(b, 'part.jsonl'), '{"text":"seven eight nine ten eleven twelve"}\n');
    const page = await openPage();
    try {
      await page.setInputFiles('#files', [join(a, 'part.jsonl'), join(b, 'part.jsonl')]);
      expect(await clickDedup(page)).toBe(
        'part.jsonl: two of the files picked have this name: the page knows a file by its name only (not its folder), so it cannot tell them apart in messages or name their documents without ids (NAME:LINE); rename one, or pick them one run at a time',
      );
    } finally {
      await page.close();
    }
  }, 120_000);
});

describe('the tab: the index results table', () => {
  it('500 documents with long ids: pages of 50, wrapped at 1280 px, axe-clean; a refusal is styled as an error', async () => {
    const indexed = Array.from({ length: 500 }, (_, i) => ({ id: `${'x'.repeat(120)}-${i}`, text: words(i + 1, 40) }));
    const corpusFile = join(root, 'indexed.jsonl');
    writeFileSync(corpusFile, indexed.map((d) => JSON.stringify(d)).join('\n') + '\n');
    const dir = join(root, 'index');
    const created = await runCliHere(['index', 'create', dir, corpusFile, '--quiet']);
    expect(created.code, created.stderr).toBe(0);
    const page = await openPage();
    try {
      await page.setInputFiles('#files', [corpusFile]);
      await page.setInputFiles('#index-dir', dir);
      const settled = Number((await page.getAttribute('#index-status', 'data-settled')) ?? 0);
      await page.click('#check-index');
      await page.waitForFunction(
        (n) => Number(document.getElementById('index-status')!.dataset.settled ?? 0) > n,
        settled,
        { timeout: 120_000 },
      );
      expect(await page.textContent('#index-status')).toMatch(/^Checked 500 documents against 500 indexed documents/);
      expect(await page.locator('#index-table tbody tr').count()).toBe(50);
      expect(await page.textContent('#index-page')).toBe('Rows 1–50 of 500 (page 1 of 10)');
      expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(8000);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
      const table = page.locator('#index-table');
      expect(await table.evaluate((t) => t.scrollWidth - t.parentElement!.clientWidth)).toBeLessThanOrEqual(1);
      const seen = new Set<string>();
      for (let p = 0; p < 10; p++) {
        for (const id of await page.locator('#index-table tbody tr td:first-child').allTextContents()) seen.add(id);
        if (p < 9) await page.click('#index-next');
      }
      expect(seen.size).toBe(500);
      expect(await page.isDisabled('#index-next')).toBe(true);
      await page.click('#index-previous');
      expect(await page.textContent('#index-page')).toBe('Rows 401–450 of 500 (page 9 of 10)');
      expect(await seriousViolations(page)).toEqual([]);

      // A refusal reads as an error: the error colour, as the dedup status's.
      await page.setInputFiles('#index-dir', join(REPO, 'web'));
      await page.click('#check-index');
      await page.waitForFunction(() => document.getElementById('index-status')!.classList.contains('error'));
      const colours = await page.evaluate(() => [
        getComputedStyle(document.getElementById('index-status')!).color,
        getComputedStyle(document.documentElement).getPropertyValue('--error').trim(),
      ]);
      const probe = await page.evaluate((c) => {
        const span = document.createElement('span');
        span.style.color = c;
        document.body.append(span);
        const shown = getComputedStyle(span).color;
        span.remove();
        return shown;
      }, colours[1]);
      expect(colours[0]).toBe(probe);
    } finally {
      await page.close();
    }
  }, 300_000);
});
