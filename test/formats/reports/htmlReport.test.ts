/**
 * `dedup --report-html` and `cluster --report-html` in a real browser: the page opens from a file with the
 * network off, logs no console error, makes no request, and every number it
 * tags (data-field, data-value) equals the JSON report of the same run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, runCliHere } from '../../support/cli.js';
import { chromiumMissing, launchChromium, REPO, underCi, type Browser } from '../../web/browser.js';
import { escapeHtml, htmlReport } from '../../../src/formats/reports/htmlReport.js';

const missing = chromiumMissing();
// Under CI a browser test fails rather than skips.
if (missing !== undefined && underCi()) throw new Error(missing);

/** The value at a dotted path of the report (`audit.bins.0.share`). */
function at(report: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key], report);
}

const SAMPLE = join(REPO, 'data/sample.jsonl.gz');

/** The page and its JSON report from one run: dedup, or sign --shard + cluster (texts from --corpus). */
const RUNS: Record<string, (dir: string, json: string, html: string) => string[][]> = {
  dedup: (_dir, json, html) => [
    ['dedup', SAMPLE, '--audit', '30', '--report', json, '--report-html', html, '--backend', 'cpu', '-q'],
  ],
  cluster: (dir, json, html) => {
    const shards = [1, 2].map((i) => join(dir, `shard-${i}.parquet`));
    return [
      ...shards.map((shard, i) => ['sign', SAMPLE, '--shard', `${i + 1}/2`, '-o', shard, '--backend', 'cpu', '-q']),
      ['cluster', ...shards, '--audit', '30', '--report', json, '--report-html', html, '--corpus', SAMPLE, '-q'],
    ];
  },
};

describe.skipIf(missing !== undefined).each(Object.keys(RUNS))('%s --report-html in Chromium', (command) => {
  let browser: Browser;
  const dir = tempDir();
  const html = join(dir, 'report.html');
  const json = join(dir, 'report.json');

  beforeAll(async () => {
    for (const args of RUNS[command](dir, json, html)) {
      const result = await runCliHere(args);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    }
    browser = await launchChromium({ webgpu: false });
  }, 120_000);

  afterAll(async () => browser?.close());

  it('opens offline with no console error and no request, and its numbers are the JSON report’s', async () => {
    const report = JSON.parse(readFileSync(json, 'utf8'));
    const page = await browser.context.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => requests.push(request.url()));
    await browser.context.setOffline(true);
    const url = `file://${html}`;
    await page.goto(url, { waitUntil: 'load' });
    expect(errors).toEqual([]);
    expect(requests).toEqual([url]); // the page itself, nothing else
    expect(await page.locator('script, link, img, iframe, object').count()).toBe(0);
    expect(await page.locator('svg').count()).toBe(2);

    const fields = await page.locator('[data-field]').evaluateAll((cells) =>
      cells.map((c) => ({
        path: c.getAttribute('data-field')!,
        value: c.getAttribute('data-value')!,
        text: c.textContent ?? '',
      })),
    );
    expect(fields.length).toBeGreaterThan(30);
    const paths = fields.map((f) => f.path);
    for (const required of [
      'documents',
      'removed',
      'kept',
      'audit.precision.share',
      'audit.precision.low',
      'audit.precision.high',
      'audit.removed.belowChainThreshold.share',
      'audit.bins.0.share',
    ]) {
      expect(paths).toContain(required);
    }
    for (const f of fields) {
      const expected = at(report, f.path);
      expect(expected, f.path).not.toBeUndefined();
      expect(f.value, f.path).toBe(String(expected));
    }
    // The shown text says the same number: counts in full, shares as percentages to two decimals.
    const shown = (path: string) => fields.find((f) => f.path === path)!.text;
    expect(shown('documents')).toBe(report.documents.toLocaleString('en-US'));
    expect(shown('audit.precision.share')).toBe(`${(100 * report.audit.precision.share).toFixed(2)} %`);
    expect(await page.locator('h1').textContent()).toBe(`gpudedup ${command} report`);

    // The largest clusters, with the kept and removed texts side by side and shared shingles marked.
    expect(await page.locator('section h3').count()).toBeGreaterThan(0);
    await page.locator('section details summary').first().click();
    expect(await page.locator('section details[open] mark.shared').count()).toBeGreaterThan(0);
    await page.close();
  }, 120_000);
});

describe('htmlReport', () => {
  it('escapes every text it shows', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const report = JSON.parse(readFileSync(join(REPO, 'test/formats/fixtures/report-sample.json'), 'utf8'));
    const page = htmlReport({
      report,
      sCurveSvg: '<svg></svg>',
      histogramSvg: '<svg></svg>',
      clusters: [
        {
          cluster: 3,
          size: 2,
          keptId: '<kept>',
          members: [
            {
              id: '<script>alert(1)</script>',
              exactDuplicate: false,
              comparison: {
                kept: [{ text: '<b>', shared: true }],
                removed: [{ text: '&', shared: false }],
                exact: 0.5,
                sharedShingles: 1,
                keptShingles: 2,
                removedShingles: 2,
              },
            },
          ],
        },
      ],
    });
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<b>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('<mark class="shared">&lt;b&gt;</mark>');
  });
});
