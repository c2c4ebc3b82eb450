/**
 * The browser app in a real browser: Debian's Chromium, headless, on its
 * SwiftShader WebGPU adapter, serving the Vite build of web/ from 127.0.0.1.
 *
 * - parity: texts shingled and signed on WebGPU in the page equal, word for
 *   word, what the CPU backend computes in Node;
 * - end to end: real files (gzipped JSONL and plain text with planted
 *   near-duplicates) picked in the page give the same summary and kept set as
 *   the Node library's runDedup, on WebGPU, with no request leaving the page's
 *   own server.
 *
 * Without /usr/bin/chromium or a WebGPU adapter the tests skip with a hint, but
 * under CI (env CI set) they fail: a broken CI image must not pass by skipping.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { defaultLshParams } from '../../src/clusters/dedupSigned.js';
import { fromSignerWords } from '../../src/bands/signatureMatrix.js';
import type { AssignmentCounts } from '../../src/clusters/assignment.js';
import type { ClusterCheck } from '../../src/clusters/clustering.js';
import { runDedup, type DedupOutcome } from '../../src/pipeline/dedup.js';
import type { VerifyMode } from '../../src/clusters/verification.js';
import { DEFAULT_READ } from '../../src/io/documents.js';
import { shingleDocument, type ShingleMode } from '../../src/shingles/shingles.js';
import { signBatchOnCpu } from '../../src/signatures/cpuSigner.js';
import { hashFamilyOf, makeParams, shingleOptionsOf } from '../../src/signatures/params.js';
import { pack } from '../../src/shingles/shingleBatch.js';
import type { SignerTuning } from '../../src/signatures/selectBackend.js';
import type { ParityRequest, ParityResponse } from '../../web/parity.js';
import { rng } from '../support/reference.js';
import {
  buildApp,
  chromiumMissing,
  ENABLE_HINT,
  launchChromium,
  loadCorpus,
  serve,
  underCi,
  type Browser,
  type CorpusDocument,
  type StaticServer,
} from './browser.js';

let browser: Browser | undefined;
let server: StaticServer | undefined;
let builtApp: string | undefined;
let missing: string | undefined;
let adapter = '';
let corpus: CorpusDocument[] = [];

beforeAll(async () => {
  missing = chromiumMissing();
  if (missing === undefined) await startBrowser();
  if (missing !== undefined && !underCi()) console.warn(`skipping browser tests: ${missing}. ${ENABLE_HINT}`);
});

/** Builds and serves the app, launches Chromium and looks for a WebGPU adapter (setting `missing` without one). */
async function startBrowser(): Promise<void> {
  corpus = await loadCorpus();
  builtApp = await buildApp();
  server = await serve(builtApp);
  browser = await launchChromium();
  const page = await browser.context.newPage();
  try {
    await page.goto(`${server.origin}/parity.html`);
    const found = await page.evaluate(async () => {
      const gpuAdapter = await navigator.gpu?.requestAdapter();
      return gpuAdapter ? `${gpuAdapter.info.vendor} ${gpuAdapter.info.architecture}` : null;
    });
    if (found === null) missing = 'Chromium found no WebGPU adapter (navigator.gpu missing or requestAdapter() returned null)';
    else adapter = found;
  } finally {
    await page.close();
  }
}

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (builtApp !== undefined) rmSync(builtApp, { recursive: true, force: true });
});

beforeEach((context) => {
  if (missing === undefined) return;
  const message = `no WebGPU in the browser: ${missing}. ${ENABLE_HINT}`;
  if (underCi()) throw new Error(`${message} (CI is set, so this fails instead of skipping)`);
  context.skip(message);
});

/** Opens a page of the app, recording every request it makes; `init` runs before the page's own scripts. */
async function openPage(path: string, init?: () => void): Promise<{ page: Page; requests: string[] }> {
  const page = await browser!.context.newPage();
  if (init !== undefined) await page.addInitScript(init);
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  await page.goto(`${server!.origin}${path}`);
  return { page, requests };
}

// ---- parity ---------------------------------------------------------------

/** Documents whose shingling and signing are easy to get wrong: empty, one shingle, Unicode, repeats. */
function edgeDocuments(): string[] {
  const next = rng(20260501);
  const alphabet = 'abc xyz 0123 ÄÖÜ é ß 中文 😀 \t\n';
  const random = Array.from({ length: 6 }, (_, i) =>
    Array.from({ length: 1 + i * 40 }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''),
  );
  return [
    '',
    '   \n\t  ',
    'word',
    'two words',
    'a b c d', // fewer tokens than n = 5: one shingle of all of them
    'a b', // fewer tokens than n in every case here: one shingle, word or character
    'Ünïcödé façade naïve café résumé Straße İstanbul ǅ ﬁ',
    '😀 🎉 emoji 👩‍👩‍👧 family 🇫🇷 flags and more emoji 🚀🚀',
    '中文文本没有空格分词的句子测试，这是第二句。',
    '日本語のテキストとカタカナのテスト',
    'mixed 中文 and English text in one document here',
    'lone \ud800 surrogate \udfff becomes U+FFFD',
    'la '.repeat(3000), // thousands of windows, one distinct shingle
    ...random,
  ];
}

/** 'identical', or how many words differ and where the first one is. */
function compareWords(actual: ArrayLike<number>, expected: ArrayLike<number>, wordsPerDoc: number): string {
  if (actual.length !== expected.length) return `length ${actual.length}, expected ${expected.length}`;
  let first = -1;
  let count = 0;
  for (let i = 0; i < expected.length; i++) {
    if (actual[i] !== expected[i]) {
      if (first < 0) first = i;
      count++;
    }
  }
  if (count === 0) return 'identical';
  return `${count} of ${expected.length} words differ; first: word ${first} (document ${Math.floor(first / wordsPerDoc)}) is ${actual[first]}, expected ${expected[first]}`;
}

interface ParityCase {
  readonly name: string;
  readonly k: number;
  readonly texts: () => string[];
  readonly seed?: string;
  readonly shingle?: ShingleMode;
  readonly n?: number;
  readonly tuning?: SignerTuning;
}

/** Licence texts spread over the corpus (short and long ones), with the edge documents in between. */
const corpusSlice = (count: number): string[] => {
  const step = Math.floor(corpus.length / count);
  return Array.from({ length: count }, (_, i) => corpus[i * step].text);
};

const PARITY_CASES: ParityCase[] = [
  { name: 'k = 128, word 5-grams, corpus slice and edge documents', k: 128, texts: () => [...corpusSlice(24), ...edgeDocuments()] },
  { name: 'k = 1, word 5-grams, max seed', k: 1, seed: '18446744073709551615', texts: () => [...edgeDocuments(), ...corpusSlice(24)] },
  {
    name: 'k = 64, auto shingles (character 3-grams for CJK), tiny chunks and segments',
    k: 64,
    shingle: 'auto',
    n: 3,
    // Many chunks and segments per document: the browser runs the chunk planner and segment combine too.
    tuning: { segmentCap: 7, maxChunkShingles: 600 },
    texts: () => [...edgeDocuments(), ...corpusSlice(6)],
  },
];

describe('WebGPU in Chromium signs like the CPU backend in Node', () => {
  for (const c of PARITY_CASES) {
    it(c.name, async () => {
      const texts = c.texts();
      const { page } = await openPage('/parity.html');
      let response: ParityResponse;
      try {
        await page.waitForSelector('body[data-ready="true"]');
        const request: ParityRequest = { texts, k: c.k, seed: c.seed, shingle: c.shingle, n: c.n, tuning: c.tuning };
        response = await page.evaluate((r) => window.gpudedupParity(r), request);
      } finally {
        await page.close();
      }
      expect(response.kind).toBe('webgpu');

      const params = makeParams({ k: c.k, seed: c.seed, shingle: c.shingle, n: c.n });
      const sets = texts.map((text) => shingleDocument(text, shingleOptionsOf(params)));
      const batch = pack(sets);
      // Shingling in the browser (its TextEncoder, Unicode regexes, case mapping) matches Node's.
      expect(compareWords(response.offsets, batch.offsets, 1)).toBe('identical');
      expect(compareWords(response.shingles, batch.shingles, 2)).toBe('identical');
      const tiny = texts.indexOf('a b');
      expect(batch.offsets[tiny + 1] - batch.offsets[tiny]).toBe(1);

      const cpu = signBatchOnCpu(hashFamilyOf(params), batch);
      const gpu = Uint32Array.from(response.words);
      expect(compareWords(gpu, cpu, 2 * c.k)).toBe('identical');
      // 32-bit slots are the low words of the 64-bit ones, as written to a uint32 .npy.
      expect(compareWords(fromSignerWords(gpu, 32), fromSignerWords(cpu, 32), c.k)).toBe('identical');
    });
  }
});

// ---- end to end -----------------------------------------------------------

/** Replaces `edits` words spread over the text, so the copy stays near (not exactly) the original. */
function editWords(text: string, edits: number, seed: number): string {
  const words = text.split(' ');
  const next = rng(seed);
  for (let e = 0; e < edits; e++) words[Math.floor(next() * words.length)] = `edited${e}`;
  return words.join(' ');
}

interface PlantedInput {
  readonly jsonlGz: string;
  readonly text: string;
  /** Ids of every document in input order, as the page names them. */
  readonly ids: string[];
}

/**
 * 20 licence texts of 250–600 words; near-duplicates of six of them (two
 * words edited); a looser copy of another; an exact duplicate modulo case and
 * whitespace; two empty documents; and, in a separate plain-text file, a
 * near-duplicate of one more.
 */
function writePlantedInput(dir: string): PlantedInput {
  const words = (text: string): number => text.split(/\s+/).length;
  const chosen = corpus.filter((doc) => words(doc.text) >= 250 && words(doc.text) <= 600).filter((_, i) => i % 7 === 0).slice(0, 20);
  const records: { id: string; text: string }[] = chosen.map((doc) => ({ id: doc.id, text: doc.text }));
  for (let i = 0; i < 6; i++) records.push({ id: `${chosen[i].id}-edited`, text: editWords(chosen[i].text, 2, 100 + i) });
  // About 8% of the words replaced: Jaccard near 0.5, a duplicate only at a low threshold.
  const rewritten = chosen[8].text.split(' ').length;
  records.push({ id: `${chosen[8].id}-rewritten`, text: editWords(chosen[8].text, Math.round(rewritten * 0.08), 300) });
  records.push({ id: `${chosen[6].id}-shouted`, text: `  ${chosen[6].text.toUpperCase().replace(/ /g, '   ')}\n` });
  records.push({ id: 'empty', text: '' });
  records.push({ id: 'blank', text: ' \n\t ' });
  const jsonlGz = join(dir, 'planted.jsonl.gz');
  writeFileSync(jsonlGz, gzipSync(records.map((r) => JSON.stringify(r)).join('\n') + '\n'));
  const text = join(dir, 'near.txt');
  writeFileSync(text, editWords(chosen[7].text, 2, 200));
  return { jsonlGz, text, ids: [...records.map((r) => r.id), 'near.txt'] };
}

const STATS: (keyof AssignmentCounts)[] = ['documents', 'empty', 'exactDuplicates', 'nearDuplicateClusters', 'removed', 'kept'];

/** A run through the page's form, and the same settings for runDedup. */
interface AppRun {
  readonly name: string;
  readonly threshold: number;
  readonly verify: VerifyMode;
  readonly clusterCheck: ClusterCheck;
  readonly keep: 'first' | 'longest';
  /** Form controls to change from the page's defaults, by id. */
  readonly form: Record<string, string>;
  /** Near-duplicate clusters planted for these settings: the six edited copies, near.txt, and at 0.4 the looser copy. */
  readonly planted: number;
}

const APP_RUNS: AppRun[] = [
  // The page's defaults, which are the CLI's: threshold 0.8, k 128, word 5-grams, hybrid, representative check, keep the first.
  { name: 'defaults', threshold: 0.8, verify: 'hybrid', clusterCheck: 'representative', keep: 'first', form: {}, planted: 7 },
  {
    name: 'threshold 0.4, exact verification, representative check, keep the longest',
    threshold: 0.4,
    verify: 'exact',
    clusterCheck: 'representative',
    keep: 'longest',
    form: { threshold: '0.4', verify: 'exact', 'cluster-check': 'representative', keep: 'longest' },
    planted: 8,
  },
];

async function download(page: Page, link: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(link)]);
  return readFile(await file.path(), 'utf8');
}

/** runDedup, the Node library's dedup, on the same files with the CPU backend. */
async function expectedOutcome(input: PlantedInput, run: AppRun): Promise<DedupOutcome> {
  const params = makeParams({ k: 128 });
  const outcome = await runDedup({
    inputs: [input.jsonlGz, input.text],
    read: DEFAULT_READ,
    params,
    backend: 'cpu',
    threshold: run.threshold,
    lsh: defaultLshParams(run.threshold, params.k, run.verify),
    verify: run.verify,
    clusterCheck: run.clusterCheck,
    keep: { kind: run.keep },
    against: [],
  });
  const counts = outcome.assignment.counts;
  // The planted structure, so that equal numbers on both sides cannot both be trivially zero.
  expect(counts.documents, run.name).toBe(31);
  expect(counts.empty, run.name).toBe(2);
  expect(counts.exactDuplicates, run.name).toBeGreaterThanOrEqual(1);
  expect(counts.nearDuplicateClusters, run.name).toBeGreaterThanOrEqual(run.planted);
  return outcome;
}

/** Sets the form like a user would, presses Dedup, and checks the page's numbers, table and downloads against `expected`. */
async function dedupInPage(page: Page, input: PlantedInput, run: AppRun, expected: DedupOutcome): Promise<void> {
  // A closed <details> hides its controls: open "More options" first.
  if (Object.keys(run.form).length > 0 && !(await page.locator('details').evaluate((el) => (el as HTMLDetailsElement).open))) {
    await page.getByText('More options').click();
  }
  for (const [id, value] of Object.entries(run.form)) {
    if ((await page.locator(`#${id}`).evaluate((el) => el.tagName)) === 'SELECT') await page.selectOption(`#${id}`, value);
    else await page.fill(`#${id}`, value);
  }
  await page.evaluate(() => document.getElementById('results')!.setAttribute('hidden', '')); // so the wait below sees this run
  await page.getByRole('button', { name: 'Dedup' }).click();
  await page.waitForSelector('#results:not([hidden])', { timeout: 45_000 });

  const { counts, kept, cluster } = expected.assignment;
  const stats: Record<string, number> = {};
  for (const key of STATS) stats[key] = Number((await page.textContent(`[data-stat="${key}"]`))!.replace(/,/g, ''));
  expect(stats, run.name).toEqual(Object.fromEntries(STATS.map((key) => [key, counts[key]])));
  const nearRows = page.locator('#clusters tbody tr td:nth-child(2)', { hasText: /^near$/ });
  expect(await nearRows.count(), run.name).toBe(counts.nearDuplicateClusters);

  // The downloads: the kept documents, and every document's cluster as the CLI's --clusters writes it.
  const keptIds = (await download(page, '#download-kept'))
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { id: string }).id);
  expect(keptIds, run.name).toEqual(input.ids.filter((_, d) => kept[d] === 1));
  const csv = input.ids.map((id, d) => `${id},${cluster[d]},${kept[d] === 1}`);
  expect(await download(page, '#download-clusters'), run.name).toBe(['id,cluster,kept', ...csv].join('\n') + '\n');
}

/** Only the page itself was loaded; downloads are blob: URLs made in the tab. */
function expectOnlyLocalRequests(requests: string[]): void {
  const origin = server!.origin;
  expect(requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith(`blob:${origin}/`))).toEqual([]);
  expect(requests.length).toBeGreaterThan(0);
}

function plantedInput(): PlantedInput {
  const dir = mkdtempSync(join(tmpdir(), 'gpudedup-web-input-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return writePlantedInput(dir);
}

describe('the app, end to end in Chromium', () => {
  it('dedups picked files on WebGPU like the Node library, without network requests', async () => {
    const input = plantedInput();
    const { page, requests } = await openPage('/');
    try {
      await page.setInputFiles('#files', [input.jsonlGz, input.text]);
      for (const run of APP_RUNS) {
        await dedupInPage(page, input, run, await expectedOutcome(input, run));
        const backend = page.locator('#backend');
        expect(await backend.getAttribute('data-backend-kind')).toBe('webgpu');
        expect(await backend.textContent()).toMatch(/^Signed with WebGPU on /);
        expect(await page.locator('#backend-note').isHidden()).toBe(true);
      }
      expectOnlyLocalRequests(requests);
      console.info(`browser e2e on ${adapter}: ${await page.locator('#backend').textContent()}`);
    } finally {
      await page.close();
    }
  });

  it('falls back to the CPU, and says so, in a browser without WebGPU', async () => {
    const input = plantedInput();
    const { page, requests } = await openPage('/', () => {
      // As in a browser without WebGPU: no navigator.gpu at all.
      Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined, configurable: true });
    });
    try {
      await page.setInputFiles('#files', [input.jsonlGz, input.text]);
      await dedupInPage(page, input, APP_RUNS[0], await expectedOutcome(input, APP_RUNS[0]));
      expect(await page.locator('#backend').getAttribute('data-backend-kind')).toBe('cpu');
      expect(await page.locator('#backend-note').textContent()).toMatch(/^WebGPU is not available here \(navigator\.gpu is missing/);
      expectOnlyLocalRequests(requests);
    } finally {
      await page.close();
    }
  });
});
