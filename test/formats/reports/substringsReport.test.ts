/**
 * `gpudedup substrings --report-html` from a real CLI run: the page holds the
 * top span's preview escaped (a planted span with `<script>` and `&` in it),
 * its ids in `<bdi>`; in Chromium it opens offline with no request and no
 * console error, every number it tags equals the JSON report of the same run,
 * and axe finds no serious or critical violation. The output is checked like
 * the others (never over an input).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { AxeResults } from 'axe-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, runCliHere } from '../../support/cli.js';
import { chromiumMissing, launchChromium, underCi, type Browser } from '../../web/browser.js';
import { escapeHtml } from '../../../src/formats/reports/htmlReport.js';

const missing = chromiumMissing();
if (missing !== undefined && underCi()) throw new Error(missing);

const PLANTED = 'Header <script>alert("x")</script> & Co. — every page of this site repeats this very line, ☃.';

/** Four documents sharing the planted span (one of them twice), one with nothing repeated. */
function corpus(dir: string): string {
  // Distinct bytes around each copy, so that every copy is a span of exactly the planted bytes.
  const docs = [
    { id: 'first<b>', text: `Welcome 1[${PLANTED}]1 body one is here.` },
    { id: '\u202eevil', text: `2(${PLANTED})2 body two.` },
    { id: 'c', text: `Other text first; then 3{${PLANTED}}3` },
    { id: 'd', text: `4a${PLANTED}b5c${PLANTED}d6` },
    { id: 'e', text: 'nothing repeated in this document at all, none of it' },
  ];
  const path = join(dir, 'in.jsonl');
  writeFileSync(path, docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
  return path;
}

/** The value at a dotted path of the report (`topSpans.0.count`). */
function at(report: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key], report);
}

describe('gpudedup substrings --report-html', () => {
  const dir = tempDir('substrings-html-');
  const html = join(dir, 'report.html');
  const json = join(dir, 'report.json');
  let input: string;
  let browser: Browser | undefined;

  beforeAll(async () => {
    input = corpus(dir);
    const r = await runCli(['substrings', input, '--min-length', '40', '--report', json, '--report-html', html, '-q']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    if (missing === undefined) browser = await launchChromium({ webgpu: false });
  }, 120_000);

  afterAll(async () => browser?.close());

  it('shows the top span escaped, with its count, first id (isolated) and offset', () => {
    const page = readFileSync(html, 'utf8');
    const report = JSON.parse(readFileSync(json, 'utf8'));
    const top = report.topSpans[0];
    expect(top.preview).toContain('<script>alert("x")</script> & Co.');
    expect(top.count).toBe(5); // the first and four cut copies (one document holds two)
    expect(top.bytes).toBe(Buffer.byteLength(PLANTED));
    expect(page).not.toContain('<script>');
    expect(page).toContain(escapeHtml(top.preview));
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co.');
    expect(page).toContain(`<bdi>${escapeHtml(top.firstId)}</bdi>`);
    expect(page).toContain(`data-field="topSpans.0.firstStart" data-value="${top.firstStart}"`);
  });

  it('opens offline in Chromium with no request, its numbers are the JSON report’s, and axe finds nothing serious', async (context) => {
    if (browser === undefined) return context.skip(missing);
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
    expect(requests).toEqual([url]);
    expect(await page.locator('script, link, img, iframe, object').count()).toBe(0);
    expect(await page.locator('h1').textContent()).toBe('gpudedup substrings report');
    const fields = await page
      .locator('[data-field]')
      .evaluateAll((cells) =>
        cells.map((c) => ({ path: c.getAttribute('data-field')!, value: c.getAttribute('data-value')! })),
      );
    const paths = fields.map((f) => f.path);
    for (const required of ['documents', 'documentsTouched', 'documentsDropped', 'bytesCut', 'spans'])
      expect(paths).toContain(required);
    expect(paths).toContain('search.rounds');
    expect(paths).toContain('topSpans.0.count');
    for (const f of fields) expect(f.value, f.path).toBe(String(at(report, f.path)));
    // The planted span's text is shown as text, not run.
    expect(await page.locator('td.text').first().textContent()).toBe(report.topSpans[0].preview);
    const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    await page.evaluate(axe);
    const results = await page.evaluate(() =>
      (window as unknown as { axe: { run(context: Document): Promise<AxeResults> } }).axe.run(document),
    );
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await browser.context.setOffline(false);
    await page.close();
  }, 60_000);

  it('is refused over an input, in one line, before any work', async () => {
    const r = await runCliHere(['substrings', input, '--report-html', input]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--report-html .*in\.jsonl/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(`${input}.partial`)).toBe(false);
  });
});
