/**
 * The tab's repeated-span search at scale: a generated JSONL of TAB_SPANS_MB
 * megabytes (test/web/largeCorpus.ts: planted exact and near-duplicates, so
 * long repeated spans) searched in headless Chromium (Debian's), against
 * `gpudedup substrings` on the same file with --threads 1 (the tab's one
 * thread) and with every core: wall times, MB/s of text, the tab's stages,
 * and whether the tab's edited documents equal the CLI's byte for byte
 * (SHA-256). With TAB_SPANS_OVER=1 the file is made just past the tab's text
 * limit (256 MiB) instead, and the time to its refusal is measured.
 *
 *   TAB_SPANS_MB=100 npm run bench:tab-substrings
 *   TAB_SPANS_OVER=1 npm run bench:tab-substrings
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { buildApp, launchChromium, serve } from '../test/web/browser.js';
import { writeLargeCorpus } from '../test/web/largeCorpus.js';
import { TAB_TEXT_LIMIT } from '../web/substringsRun.js';

const OVER = process.env.TAB_SPANS_OVER === '1';
const MB = OVER ? Math.ceil((TAB_TEXT_LIMIT * 1.04) / 1e6) : Number(process.env.TAB_SPANS_MB ?? 100);
const CLI = join(import.meta.dirname, '../dist/src/cli/main.js');

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** `gpudedup substrings` on the file: wall seconds and its report. */
function cli(
  input: string,
  dir: string,
  threads: string,
): Promise<{ seconds: number; report: { search: { rounds: number } } }> {
  const report = join(dir, `cli-${threads}.json`);
  const args = [CLI, 'substrings', input, '-o', join(dir, `cli-${threads}.jsonl`), '--report', report, '-q'];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args, '--threads', threads], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`gpudedup substrings exited ${code}`));
      else resolve({ seconds: (performance.now() - started) / 1000, report: JSON.parse(readFileSync(report, 'utf8')) });
    });
  });
}

it(`searches a ${MB} MB JSONL for repeated spans in the tab`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpudedup-tab-spans-'));
  const built = await buildApp();
  const server = await serve(built);
  const browser = await launchChromium({ webgpu: false });
  try {
    const path = join(dir, 'corpus.jsonl');
    const corpus = await writeLargeCorpus(path, MB * 1e6);
    const page = await browser.context.newPage();
    await page.goto(`${server.origin}/`);
    await page.setInputFiles('#files', [path]);
    const load = loadavg()[0].toFixed(1);
    const started = performance.now();
    await page.click('#find-spans');
    await page.waitForFunction(() => Number(document.getElementById('spans-status')!.dataset.settled ?? 0) > 0, null, {
      timeout: 3_600_000,
      polling: 1000,
    });
    const seconds = (performance.now() - started) / 1000;
    const status = (await page.textContent('#spans-status')) ?? '';
    console.info(`${corpus.documents} documents, ${(corpus.bytes / 1e6).toFixed(0)} MB; load ${load}`);
    if (OVER) {
      console.info(`refused after ${seconds.toFixed(1)} s: ${status}`);
      expect(status).toMatch(/^the files hold more than 268,435,456 bytes of text \(256 MiB\)/);
      return;
    }
    expect(status).toMatch(/^Done/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-edited')]);
    const edited = join(dir, 'tab.jsonl');
    await download.saveAs(edited);
    const [reportFile] = await Promise.all([page.waitForEvent('download'), page.click('#download-spans-report')]);
    const tab = JSON.parse(readFileSync(await reportFile.path(), 'utf8'));
    const text = tab.textBytes / 1e6;
    console.info(
      `tab: ${seconds.toFixed(1)} s wall, ${(text / seconds).toFixed(2)} MB/s of text (${text.toFixed(0)} MB), ` +
        `${tab.search.rounds} rounds, stages ${JSON.stringify(tab.timings)}, ${tab.spans} spans, ${tab.bytesCut} bytes cut`,
    );
    for (const threads of ['1', '2']) {
      const run = await cli(path, dir, threads);
      const same = (await sha256(edited)) === (await sha256(join(dir, `cli-${threads}.jsonl`)));
      console.info(
        `cli --threads ${threads}: ${run.seconds.toFixed(1)} s wall (${(text / run.seconds).toFixed(2)} MB/s), ` +
          `${run.report.search.rounds} rounds; tab/cli ${(seconds / run.seconds).toFixed(2)}; edited documents equal: ${same}; ` +
          `load ${loadavg()[0].toFixed(1)}`,
      );
      expect(same).toBe(true);
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(built, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
});
