/**
 * The browser app at scale: a generated JSONL of WEB_SCALE_MB megabytes
 * (default 600, over the ≈ 512 MiB where a whole-file string read comes back
 * empty) deduplicated in headless Chromium, read by streaming in the worker.
 * Prints MB/s, documents/s, the page's stage times and the main thread's JS
 * heap; with WEB_SCALE_CHECK=1 also runs the CLI's runDedup and its writing
 * (-o kept.jsonl, --clusters and --pairs as CSV: writeDedupOutputs) on the
 * same file, compares the counts, and prints the tab's time and its writing
 * stage ("Making the downloads") against the CLI's, with the load average.
 *
 *   WEB_SCALE_MB=600 WEB_SCALE_K=16 WEB_SCALE_BACKEND=cpu npm run bench:web
 *
 * WEB_SCALE_BACKEND is the page's setting: cpu, webgpu (any adapter, SwiftShader
 * here) or auto (which passes a software adapter over for the CPU).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { OPTIONS } from '../src/options.js';
import { DEFAULT_READ } from '../src/io/documents.js';
import { runDedup } from '../src/pipeline/dedup/dedup.js';
import { writeDedupOutputs } from '../src/pipeline/dedup/writeOutputs.js';
import { makeParams } from '../src/signatures/params.js';
import { buildApp, launchChromium, serve } from '../test/web/browser.js';
import { writeLargeCorpus } from '../test/web/largeCorpus.js';

const MB = Number(process.env.WEB_SCALE_MB ?? 600);
const K = Number(process.env.WEB_SCALE_K ?? 16);
const BACKEND = process.env.WEB_SCALE_BACKEND ?? 'cpu';
const STATS = ['documents', 'empty', 'exactDuplicates', 'nearDuplicateClusters', 'removed', 'kept'] as const;

it(`dedups a ${MB} MB JSONL in the tab (k = ${K}, ${BACKEND})`, async () => {
  const path = join(tmpdir(), `gpudedup-web-scale-${MB}.jsonl`);
  const generated = performance.now();
  const corpus = await writeLargeCorpus(path, MB * 1e6);
  console.info(
    `generated ${corpus.documents} documents, ${(statSync(path).size / 1e6).toFixed(0)} MB in ${((performance.now() - generated) / 1000).toFixed(1)} s`,
  );
  const built = await buildApp();
  const server = await serve(built);
  const browser = await launchChromium({ webgpu: BACKEND !== 'cpu' });
  try {
    const page = await browser.context.newPage();
    await page.goto(`${server.origin}/`);
    await page.setInputFiles('#files', [path]);
    await page.selectOption('#backend-choice', BACKEND);
    await page.click('#more-options summary');
    await page.fill('#k', String(K));
    const started = performance.now();
    await page.click('#run');
    await page.waitForFunction(() => Number(document.getElementById('status')!.dataset.settled ?? 0) > 0, null, {
      timeout: 3_600_000,
      polling: 1000,
    });
    const seconds = (performance.now() - started) / 1000;
    const status = await page.textContent('#status');
    expect(status).toMatch(/^Done/);
    const stats = Object.fromEntries(
      await Promise.all(
        STATS.map(async (key) => [key, Number((await page.textContent(`[data-stat="${key}"]`))!.replace(/,/g, ''))]),
      ),
    );
    const timings = (await page.locator('#timings tbody tr').allTextContents()).join('; ');
    const heap = await page.evaluate(
      () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0,
    );
    console.info(
      `${(corpus.bytes / 1e6).toFixed(0)} MB, ${corpus.documents} documents in ${seconds.toFixed(1)} s: ${(corpus.bytes / 1e6 / seconds).toFixed(2)} MB/s, ` +
        `${Math.round(corpus.documents / seconds)} docs/s; ${await page.textContent('#backend')}\n  stages: ${timings}\n  counts: ${JSON.stringify(stats)}\n` +
        `  main-thread JS heap after the run: ${(heap / 1e6).toFixed(1)} MB`,
    );
    expect(stats.documents).toBe(corpus.documents);
    if (process.env.WEB_SCALE_CHECK === '1') {
      const params = makeParams({ k: K });
      const cliStarted = performance.now();
      // The page's settings: the options table's defaults, and the bands × rows it chose.
      const [bands, rows] = (await page.getAttribute('#s-curve', 'data-lsh'))!.split('x').map(Number);
      const cli = await runDedup({
        inputs: [path],
        read: DEFAULT_READ,
        params,
        backend: 'cpu',
        threshold: OPTIONS.threshold.default!,
        lsh: { bands, rows },
        verify: OPTIONS.verify.default!,
        clusterCheck: OPTIONS.clusterCheck.default!,
        keep: OPTIONS.keep.default!,
        against: [],
      });
      const cliDedup = (performance.now() - cliStarted) / 1000;
      const out = mkdtempSync(join(tmpdir(), 'gpudedup-web-scale-cli-'));
      const writingStarted = performance.now();
      const files = {
        out: join(out, 'kept.jsonl'),
        clusters: join(out, 'clusters.csv'),
        pairs: join(out, 'pairs.csv'),
      };
      await writeDedupOutputs(cli, files, DEFAULT_READ, { update: () => undefined, stop: () => undefined });
      const cliWriting = (performance.now() - writingStarted) / 1000;
      rmSync(out, { recursive: true, force: true });
      for (const key of STATS) expect(stats[key], key).toBe(cli.assignment.counts[key]);
      const tabWriting = Number(/writing([\d.]+)/.exec(timings)?.[1] ?? NaN);
      console.info(
        `counts equal the CLI's runDedup; load ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}\n` +
          `  CLI: ${(cliDedup + cliWriting).toFixed(1)} s (writing ${cliWriting.toFixed(2)} s); tab: ${seconds.toFixed(1)} s (writing ${tabWriting.toFixed(2)} s); ` +
          `tab / CLI ${(seconds / (cliDedup + cliWriting)).toFixed(2)}×, writing ${(tabWriting / cliWriting).toFixed(2)}×`,
      );
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(built, { recursive: true, force: true });
    rmSync(path, { force: true });
  }
});
