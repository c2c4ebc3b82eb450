/**
 * The HTML report laid out in Chromium with hostile ids (issue 31, items 14
 * and 16): an id holding U+202E (right-to-left override) must not reverse the
 * page's own words after it, a 400-character id must not widen the page past
 * a 1280 px window, and every summary row has its label and one cell.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlReport } from '../../../src/formats/reports/htmlReport.js';
import { chromiumMissing, launchChromium, REPO, underCi, type Browser } from '../../web/browser.js';

const missing = chromiumMissing();
if (missing !== undefined && underCi()) throw new Error(missing);

const RLO = '\u202e';
const LONG = 'x'.repeat(400);

function page(): string {
  const report = JSON.parse(readFileSync(join(REPO, 'test/formats/fixtures/report-sample.json'), 'utf8'));
  const comparison = {
    kept: [{ text: 'a b c', shared: true }],
    removed: [{ text: 'a b d', shared: false }],
    exact: 0.5,
    sharedShingles: 1,
    keptShingles: 2,
    removedShingles: 2,
  };
  return htmlReport({
    report: { ...report, inputs: [`${RLO}evil.jsonl`, 'plain.jsonl'] },
    sCurveSvg: '<svg></svg>',
    histogramSvg: '<svg></svg>',
    clusters: [
      {
        cluster: 3,
        size: 3,
        keptId: `${RLO}abc`,
        members: [
          { id: `${RLO}def`, exactDuplicate: false, comparison },
          { id: `${RLO}ghi`, exactDuplicate: true },
        ],
      },
      { cluster: 4, size: 2, keptId: LONG, members: [{ id: LONG, exactDuplicate: false, comparison }] },
    ],
  });
}

/** The left edge of each character of `word` in the first text node of `selector` that holds it, in page order. */
const WORD_EDGES = ([selector, word]: string[]): number[] => {
  const element = document.querySelector(selector)!;
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.textContent!.indexOf(word);
    if (at < 0) continue;
    return [...word].map((_, i) => {
      const range = document.createRange();
      range.setStart(node, at + i);
      range.setEnd(node, at + i + 1);
      return range.getBoundingClientRect().left;
    });
  }
  throw new Error(`${selector} has no text ${word}`);
};

const increasing = (xs: number[]): boolean => xs.every((x, i) => i === 0 || x > xs[i - 1]);

describe.skipIf(missing !== undefined)('the HTML report with hostile ids, in Chromium at 1280 px', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium({ webgpu: false });
  }, 60_000);
  afterAll(async () => browser?.close());

  it("an id's right-to-left override stays inside the id: the report's own words after it read left to right", async () => {
    const tab = await browser.context.newPage();
    await tab.setViewportSize({ width: 1280, height: 900 });
    await tab.setContent(page());
    for (const [selector, word] of [
      ['section h3', 'kept'], // “‮abc” kept
      ['section li summary', 'exact Jaccard'],
      ['section li:nth-child(2)', 'exact duplicate of the kept text'],
      ['p.note', 'Backend'], // Inputs: ‮evil.jsonl, plain.jsonl. Backend: …
    ] as [string, string][]) {
      expect(
        increasing(await tab.evaluate(WORD_EDGES, [selector, word])),
        `${selector}: "${word}" is laid out left to right`,
      ).toBe(true);
    }
    expect(await tab.evaluate(WORD_EDGES, ['p.note', 'plain.jsonl']).then(increasing), 'the next file name too').toBe(
      true,
    );
    await tab.close();
  });

  it('a 400-character id wraps: the page is no wider than the window; every summary row is a label and one cell', async () => {
    const tab = await browser.context.newPage();
    await tab.setViewportSize({ width: 1280, height: 900 });
    await tab.setContent(page());
    await tab.locator('section:nth-of-type(2) details summary').click();
    expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    const cells = await tab
      .locator('h2:text("Summary") + table tr')
      .evaluateAll((rows) =>
        rows.map((r) => `${r.querySelector('th')?.textContent}: ${r.querySelectorAll('td').length}`),
      );
    expect(cells.length).toBeGreaterThan(10);
    for (const line of cells) expect(line).toMatch(/: 1$/);
    const bandsRows = tab.locator('tr:has(th:text("bands × rows")) td');
    expect(await bandsRows.textContent()).toBe('16 × 6');
    expect(
      await bandsRows
        .locator('[data-field]')
        .evaluateAll((f) => f.map((e) => `${e.getAttribute('data-field')}=${e.getAttribute('data-value')}`)),
    ).toEqual(['parameters.bands=16', 'parameters.rows=6']);
    await tab.close();
  });
});
