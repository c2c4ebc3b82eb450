/**
 * The tab's repeated-span search in a real browser (Debian's Chromium,
 * headless, the Vite build of web/ served from 127.0.0.1): on
 * data/sample.jsonl.gz with a planted file (a byte order mark, CRLF line ends,
 * a span written with \u escapes in one line and raw in another, a document
 * that is all repeat), its downloads equal `gpudedup substrings`' outputs
 * byte for byte: the edited documents (`-o x.jsonl`) and the spans (`--spans
 * x.csv`), and its report the CLI's `--report` but for inputs and times;
 * `--cut all` and `--min-remaining` too, and a Parquet input; a bad setting is marked; Stop ends a
 * search at once (and Dedup waits for one); axe finds no serious violation. Without /usr/bin/chromium the tests skip with a hint
 * (under CI they fail).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ParquetTableBuffer } from '../../src/formats/parquet/parquetBuffer.js';
import { runCliHere } from '../support/cli.js';
import { tempDir } from '../support/tempDirs.js';
import { REPO, seriousViolations } from './browser.js';
import { press, useTab } from './tabFixture.js';

const tab = useTab();
const root = tempDir();
const SAMPLE = join(REPO, 'data/sample.jsonl.gz');

const P = 'A paragraph every page of this site repeats, café and crème brûlée 🍰, long enough to count twice over.';
/** P as JSON with every non-ASCII character escaped (\u00e9…), as some writers write it. */
const escaped = (text: string): string =>
  JSON.stringify(text).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function plantedFile(): string {
  const lines = [
    `\ufeff{"id":"p1","text":${escaped(`Intro: ${P} The end.`)},"lang":"fr"}\r\n`,
    `{"id": "p2", "text": ${JSON.stringify(`Other start; ${P}`)}, "n": 1.50}\r\n`,
    `{"id":"p3","text":${JSON.stringify(P)},"meta":{"a":[1,"\\u00e9"]}}\n`,
    `{"id":"p4","text":"nothing repeated here \\u00e9","x":1e3}\r\n`,
  ];
  const path = join(root, 'planted.jsonl');
  writeFileSync(path, lines.join(''));
  return path;
}

/** The planted documents as Parquet (id, text, a number), two rows a row group. */
function plantedParquet(): string {
  const table = new ParquetTableBuffer(
    [
      ['id', 'STRING'],
      ['text', 'STRING'],
      ['score', 'INT64'],
    ],
    2,
  );
  const texts = [`Intro: ${P} The end.`, `Other start; ${P}`, P, 'nothing repeated here é'];
  texts.forEach((text, i) => table.row([`q${i + 1}`, text, i * 10]));
  const path = join(root, 'planted.parquet');
  writeFileSync(path, Buffer.concat(table.finish()));
  return path;
}

async function bytesOf(page: Page, link: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(link)]);
  return readFile(await file.path());
}

/** Sets the span settings, presses Find repeated spans, and waits for the search to settle; its status text. */
async function findSpans(page: Page, files: string[], settings: Record<string, string>): Promise<string> {
  await page.setInputFiles('#files', files);
  for (const [id, value] of Object.entries(settings)) {
    if (id === 'cut') await page.selectOption('#cut', value);
    else await page.fill(`#${id}`, value);
  }
  return press(page, '#find-spans', '#spans-status', 60_000);
}

/** The CLI's outputs for the same files and flags. */
async function cliOutputs(name: string, files: string[], flags: string[]) {
  const [out, spans, report] = ['edited.jsonl', 'spans.csv', 'report.json'].map((f) => join(root, `${name}-${f}`));
  const r = await runCliHere(['substrings', ...files, '-o', out, '--spans', spans, '--report', report, '-q', ...flags]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return { edited: readFileSync(out), spans: readFileSync(spans), report: JSON.parse(readFileSync(report, 'utf8')) };
}

/** A report without what differs between two runs of the same search: the inputs' names and the times. */
function comparable(report: Record<string, unknown>) {
  const { inputs: _, seconds: __, timings, ...rest } = report;
  return { ...rest, stages: Object.keys(timings as object) };
}

describe('the tab finds repeated spans as gpudedup substrings does', () => {
  it('gives the CLI’s edited documents and spans byte for byte, and its report', async () => {
    const planted = plantedFile();
    const files = [SAMPLE, planted];
    // One thread, as the tab's search: the same rounds in the report (the spans are the same on any number of threads).
    const cli = await cliOutputs('sample', files, ['--min-length', '60', '--threads', '1']);
    expect(cli.report.documentsTouched).toBeGreaterThan(100); // a test that can fail: spans there are
    expect(cli.report.documentsDropped).toBeGreaterThan(0);
    expect(cli.edited.toString('utf8')).toContain('"id": "p2", "text": "Other start;"'); // p2 edited, p3 dropped
    expect(cli.edited.toString('utf8')).not.toContain('"id":"p3"');

    const page = await tab.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await page.goto(`${tab.origin}/`);
    // The form's defaults are the table's (--min-length 100, --cut later, --min-remaining 1).
    expect(await page.inputValue('#min-length')).toBe('100');
    expect(await page.inputValue('#cut')).toBe('later');
    expect(await page.inputValue('#min-remaining')).toBe('1');
    expect(await findSpans(page, files, { 'min-length': '60' })).toMatch(/^Done in [\d.]+ s\.$/);
    expect((await bytesOf(page, '#download-edited')).equals(cli.edited)).toBe(true);
    expect((await bytesOf(page, '#download-spans')).equals(cli.spans)).toBe(true);
    const report = JSON.parse((await bytesOf(page, '#download-spans-report')).toString('utf8'));
    expect(comparable(report)).toEqual(comparable(cli.report));
    expect(report.inputs).toEqual(['sample.jsonl.gz', 'planted.jsonl']);
    const html = (await bytesOf(page, '#download-spans-report-html')).toString('utf8');
    expect(html).toContain('<h1>gpudedup substrings report</h1>');

    // The counts and the most repeated spans, as the report has them.
    expect(await page.textContent('[data-span-stat="documentsTouched"]')).toBe(
      cli.report.documentsTouched.toLocaleString('en'),
    );
    const rows = page.locator('#spans-top tbody tr');
    expect(await rows.count()).toBe(cli.report.topSpans.length);
    expect(await rows.first().locator('bdi').textContent()).toBe(cli.report.topSpans[0].firstId);
    expect(await seriousViolations(page)).toEqual([]);
    expect(
      requests.filter((url) => !url.startsWith(`${tab.origin}/`) && !url.startsWith(`blob:${tab.origin}/`)),
    ).toEqual([]);
    await page.close();
  }, 120_000);

  it('--cut all and --min-remaining as the CLI; a bad setting is marked and refused; Stop stops at once', async () => {
    const planted = plantedFile();
    const cli = await cliOutputs('all', [planted], ['--min-length', '40', '--cut', 'all', '--min-remaining', '13']);
    expect(cli.report.documentsDropped).toBe(2); // p3 emptied, p2 left with "Other start;" (12 bytes), p1 with 15
    const page = await tab.newPage();
    await page.goto(`${tab.origin}/`);
    // A dedup first: a span search leaves its results working (its Parquet is made by the worker afterwards).
    await page.setInputFiles('#files', [planted]);
    await page.click('#run');
    await page.waitForFunction(() => Number(document.getElementById('status')!.dataset.settled ?? 0) > 0);
    expect(await page.textContent('#status')).toMatch(/^Done/);
    const settings = { 'min-length': '40', cut: 'all', 'min-remaining': '13' };
    expect(await findSpans(page, [planted], settings)).toMatch(/^Done in/);
    expect((await bytesOf(page, '#download-edited')).equals(cli.edited)).toBe(true);
    expect((await bytesOf(page, '#download-spans')).equals(cli.spans)).toBe(true);
    expect(await page.isVisible('#results')).toBe(true);
    expect((await bytesOf(page, '#download-kept-parquet')).subarray(0, 4).toString()).toBe('PAR1');

    expect(await findSpans(page, [planted], { 'min-length': '0' })).toBe(
      '“Shortest repeated span (bytes)” must be an integer from 1 to 1048576, got 0.',
    );
    expect(await page.getAttribute('#min-length', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#spans-status', 'role')).toBe('alert');

    // Dedup waits while a search runs; Stop ends the search at once; the next search runs as before.
    const settled = Number(await page.getAttribute('#spans-status', 'data-settled'));
    await page.fill('#min-length', '40');
    await page.setInputFiles('#files', [SAMPLE, planted]);
    await page.click('#find-spans');
    await page.click('#run');
    expect(await page.textContent('#status')).toBe('A repeated-span search is in progress: wait for it, or stop it.');
    await page.click('#stop-spans');
    expect(Number(await page.getAttribute('#spans-status', 'data-settled'))).toBe(settled + 1);
    expect(await page.textContent('#spans-status')).toBe(
      'Stopped. Files and settings are unchanged; press Find repeated spans to run again.',
    );
    expect(await page.isHidden('#stop-spans')).toBe(true);
    expect(await page.isHidden('#results')).toBe(true); // the dedup's inspector went with the stopped worker
    expect(await findSpans(page, [planted], settings)).toMatch(/^Done/);
    expect((await bytesOf(page, '#download-edited')).equals(cli.edited)).toBe(true);
    await page.close();
  }, 60_000);

  it('a Parquet input: its rows as the CLI writes them to -o x.jsonl, spans and all', async () => {
    const parquet = plantedParquet();
    const cli = await cliOutputs('parquet', [parquet], ['--min-length', '40']);
    expect(cli.report.documentsTouched).toBe(2);
    const page = await tab.newPage();
    await page.goto(`${tab.origin}/`);
    expect(await findSpans(page, [parquet], { 'min-length': '40' })).toMatch(/^Done in/);
    expect((await bytesOf(page, '#download-edited')).equals(cli.edited)).toBe(true);
    expect((await bytesOf(page, '#download-spans')).equals(cli.spans)).toBe(true);
    await page.close();
  }, 60_000);
});
