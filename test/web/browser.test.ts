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
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { defaultLshParams } from '../../src/dedup/dedupSigned.js';
import { fromSignerWords } from '../../src/bands/signatureMatrix.js';
import type { AssignmentCounts } from '../../src/clusters/assignment.js';
import type { ClusterCheck } from '../../src/clusters/clustering.js';
import { runDedup, type DedupOutcome } from '../../src/pipeline/dedup/dedup.js';
import type { VerifyMode } from '../../src/verify/verification.js';
import { DEFAULT_READ, type InputError } from '../../src/io/documents.js';
import { parseJsonLine } from '../../src/io/jsonLines.js';
import { exactJaccard } from '../../src/verify/verification.js';
import { runCliHere } from '../support/cli.js';
import { writeLargeCorpus } from './largeCorpus.js';
import { shingleDocument, type ShingleMode } from '../../src/shingles/shingles.js';
import { signBatchOnCpu } from '../../src/signatures/cpuSigner.js';
import { hashFamilyOf, makeParams, shingleOptionsOf } from '../../src/signatures/params.js';
import { pack } from '../../src/shingles/shingleBatch.js';
import type { SignerTuning } from '../../src/signatures/selectBackend.js';
import type { ParityRequest, ParityResponse } from '../../web/parity.js';
import { rng } from '../support/reference.js';
import { DATASKETCH_HINT, datasketchMissing, datasketchRows } from '../support/datasketch.js';
import { shingleStrings } from '../../src/shingles/sha1Shingles.js';
import { DEFAULT_NORMALIZE } from '../../src/text/normalize.js';
import { rows, sqlString, withDuckDB } from '../support/duckdb.js';
import {
  chromiumMissing,
  ENABLE_HINT,
  launchChromium,
  releaseApp,
  loadCorpus,
  REPO,
  serve,
  sharedApp,
  underCi,
  type Browser,
  type CorpusDocument,
  type StaticServer,
  seriousViolations,
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
  builtApp = await sharedApp();
  server = await serve(builtApp);
  browser = await launchChromium();
  const page = await browser.context.newPage();
  try {
    await page.goto(`${server.origin}/parity.html`);
    const found = await page.evaluate(async () => {
      const gpuAdapter = await navigator.gpu?.requestAdapter();
      return gpuAdapter ? `${gpuAdapter.info.vendor} ${gpuAdapter.info.architecture}` : null;
    });
    if (found === null)
      missing = 'Chromium found no WebGPU adapter (navigator.gpu missing or requestAdapter() returned null)';
    else adapter = found;
  } finally {
    await page.close();
  }
}

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (builtApp !== undefined) releaseApp(builtApp);
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
  {
    name: 'k = 128, word 5-grams, corpus slice and edge documents',
    k: 128,
    texts: () => [...corpusSlice(24), ...edgeDocuments()],
  },
  {
    name: 'k = 1, word 5-grams, max seed',
    k: 1,
    seed: '18446744073709551615',
    texts: () => [...edgeDocuments(), ...corpusSlice(24)],
  },
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
  /** Every document, as the page names it. */
  readonly documents: { id: string; text: string }[];
}

/**
 * 20 licence texts of 250–600 words; near-duplicates of six of them (two
 * words edited); a looser copy of another; an exact duplicate modulo case and
 * whitespace; two empty documents; and, in a separate plain-text file, a
 * near-duplicate of one more.
 */
function writePlantedInput(dir: string): PlantedInput {
  const words = (text: string): number => text.split(/\s+/).length;
  const chosen = corpus
    .filter((doc) => words(doc.text) >= 250 && words(doc.text) <= 600)
    .filter((_, i) => i % 7 === 0)
    .slice(0, 20);
  const records: { id: string; text: string }[] = chosen.map((doc) => ({ id: doc.id, text: doc.text }));
  for (let i = 0; i < 6; i++)
    records.push({ id: `${chosen[i].id}-edited`, text: editWords(chosen[i].text, 2, 100 + i) });
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
  const nearText = readFileSync(text, 'utf8');
  return {
    jsonlGz,
    text,
    ids: [...records.map((r) => r.id), 'near.txt'],
    documents: [...records, { id: 'near.txt', text: nearText }],
  };
}

const STATS: (keyof AssignmentCounts)[] = [
  'documents',
  'empty',
  'exactDuplicates',
  'nearDuplicateClusters',
  'removed',
  'kept',
];

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
  {
    name: 'defaults',
    threshold: 0.8,
    verify: 'hybrid',
    clusterCheck: 'representative',
    keep: 'first',
    form: {},
    planted: 7,
  },
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
  if (
    Object.keys(run.form).length > 0 &&
    !(await page.locator('details').evaluate((el) => (el as HTMLDetailsElement).open))
  ) {
    await page.getByText('More options').click();
  }
  for (const [id, value] of Object.entries(run.form)) {
    if ((await page.locator(`#${id}`).evaluate((el) => el.tagName)) === 'SELECT')
      await page.selectOption(`#${id}`, value);
    else await page.fill(`#${id}`, value);
  }
  expect(await clickDedup(page), run.name).toMatch(/^Done/);
  // Dedup was disabled while it ran: focus goes to the results, not to the page's body.
  expect(await page.evaluate(() => document.activeElement?.id), run.name).toBe('results-heading');

  const { counts, kept, cluster } = expected.assignment;
  const stats: Record<string, number> = {};
  for (const key of STATS) stats[key] = Number((await page.textContent(`[data-stat="${key}"]`))!.replace(/,/g, ''));
  expect(stats, run.name).toEqual(Object.fromEntries(STATS.map((key) => [key, counts[key]])));
  const nearRows = page.locator('#clusters tbody tr td:nth-child(2)', { hasText: /^near$/ });
  expect(await nearRows.count(), run.name).toBe(counts.nearDuplicateClusters);

  // The downloads: the kept documents, and every document's cluster as the CLI's --clusters writes it.
  await page.waitForSelector('#clusters tbody tr');
  const keptIds = (await download(page, '#download-kept'))
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { id: string }).id);
  expect(keptIds, run.name).toEqual(input.ids.filter((_, d) => kept[d] === 1));
  const csv = input.ids.map((id, d) => `${id},${cluster[d]},${kept[d] === 1}`);
  expect(await download(page, '#download-clusters'), run.name).toBe(['id,cluster,kept', ...csv].join('\n') + '\n');
}

/** Presses Dedup and waits for the results or an error; returns the status line. */
async function clickDedup(page: Page, timeout = 60_000): Promise<string> {
  const before = (await page.getAttribute('#status', 'data-settled')) ?? '0';
  await page.getByRole('button', { name: 'Dedup' }).click();
  await page.waitForFunction((n) => (document.getElementById('status')!.dataset.settled ?? '0') !== n, before, {
    timeout,
  });
  return (await page.textContent('#status')) ?? '';
}

/**
 * After a run, no stage may still say "running…" or a time left: done, every
 * stage is done; failed or cancelled, the stage that was running says so and
 * the ones before it are done.
 */
async function expectProgressEnded(page: Page, end: 'done' | 'failed' | 'cancelled'): Promise<void> {
  const stages = await page.locator('#progress li').evaluateAll((lis) =>
    lis.map((li) => ({
      stage: (li as HTMLElement).dataset.stage,
      state: (li as HTMLElement).dataset.state,
      text: li.lastElementChild!.textContent ?? '',
    })),
  );
  expect(stages.length, end).toBeGreaterThan(0);
  for (const s of stages) expect(s.text, `${s.stage}: ${s.text}`).not.toMatch(/running|left/);
  const last = stages[stages.length - 1];
  for (const s of stages.slice(0, -1)) expect(s.state, `${s.stage}: ${s.text}`).toBe('done');
  expect(last.state, `${last.stage}: ${last.text}`).toBe(end);
  expect(last.text).toMatch(end === 'done' ? /^done in [\d.,]+ s$/ : new RegExp(`^${end} after [\\d.,]+ s$`));
  if (end === 'done') {
    const bars = await page
      .locator('#progress progress')
      .evaluateAll((ps) => ps.map((p) => (p as HTMLProgressElement).position));
    expect(bars.every((position) => position === 1)).toBe(true);
  }
}

async function download(page: Page, link: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(link)]);
  return readFile(await file.path(), 'utf8');
}

/** Only the page itself was loaded; downloads are blob: URLs made in the tab. */
function expectOnlyLocalRequests(requests: string[]): void {
  const origin = server!.origin;
  expect(requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith(`blob:${origin}/`))).toEqual([]);
  expect(requests.length).toBeGreaterThan(0);
}

function tempInputDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gpudedup-web-input-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const plantedInput = (): PlantedInput => writePlantedInput(tempInputDir());

/** Screenshots for people to look at: test-artifacts/ (gitignored). */
const ARTIFACTS = join(REPO, 'test-artifacts');
async function screenshot(target: Page | Locator, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await target.screenshot({ path: join(ARTIFACTS, name) });
}

/** Nothing wider than the window: the page never scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const [scroll, client] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scroll, `${what}: page ${scroll} px wide in a ${client} px window`).toBeLessThanOrEqual(client);
}

/** The CLI's files for the same input and settings: kept JSONL, clusters, pairs, report. */
async function cliOutputs(input: PlantedInput, run: AppRun) {
  const dir = tempInputDir();
  const path = (name: string): string => join(dir, name);
  const args = [
    'dedup',
    input.jsonlGz,
    input.text,
    '-o',
    path('kept.jsonl'),
    '--clusters',
    path('clusters.csv'),
    '--pairs',
    path('pairs.csv'),
  ];
  args.push(
    '--report',
    path('report.json'),
    '--threshold',
    String(run.threshold),
    '--verify',
    run.verify,
    '--cluster-check',
    run.clusterCheck,
    '--keep',
    run.keep,
    '--backend',
    'cpu',
    '-q',
  );
  const result = await runCliHere(args);
  expect(result.stderr).toBe('');
  // The CLI names a plain-text document by its path; a picked file has only its name.
  const read = (name: string): string => readFileSync(path(name), 'utf8').replaceAll(`${dirname(input.text)}/`, '');
  return {
    kept: read('kept.jsonl'),
    clusters: read('clusters.csv'),
    pairs: read('pairs.csv'),
    report: JSON.parse(read('report.json')) as Record<string, unknown>,
  };
}

/** The app's Parquet downloads hold the CLI's `*.parquet` outputs' columns, types, rows and codec (snappy), read by DuckDB. */
async function expectParquetLikeCli(page: Page, input: PlantedInput, run: AppRun): Promise<void> {
  const dir = tempInputDir();
  const path = (name: string): string => join(dir, name);
  const args = [
    'dedup',
    input.jsonlGz,
    input.text,
    '-o',
    path('cli-kept.parquet'),
    '--clusters',
    path('cli-clusters.parquet'),
    '--pairs',
    path('cli-pairs.parquet'),
  ];
  args.push(
    '--threshold',
    String(run.threshold),
    '--verify',
    run.verify,
    '--cluster-check',
    run.clusterCheck,
    '--keep',
    run.keep,
    '--backend',
    'cpu',
    '-q',
  );
  expect((await runCliHere(args)).stderr).toBe('');
  const prefix = `${dirname(input.text)}/`; // the CLI names a plain-text document by its path
  const local = (value: unknown): unknown => (typeof value === 'string' ? value.replaceAll(prefix, '') : value);
  await withDuckDB(async (db) => {
    for (const name of ['kept', 'clusters', 'pairs']) {
      // Made only when asked for, as the CLI writes only the outputs it is given: no Blob behind the link until then.
      expect(await page.getAttribute(`#download-${name}-parquet`, 'href'), name).toBe('#');
      const [file] = await Promise.all([page.waitForEvent('download'), page.click(`#download-${name}-parquet`)]);
      expect(await page.getAttribute(`#download-${name}-parquet`, 'href'), name).toMatch(/^blob:/);
      expect(file.suggestedFilename()).toBe(`${name}.parquet`);
      await file.saveAs(path(`app-${name}.parquet`));
      const read = (who: string) =>
        rows(db, `SELECT * FROM read_parquet(${sqlString(path(`${who}-${name}.parquet`))})`);
      const schema = (who: string) =>
        rows(
          db,
          `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${sqlString(path(`${who}-${name}.parquet`))}))`,
        );
      const app = await read('app');
      expect(app.length, name).toBeGreaterThan(0);
      expect(app, name).toEqual(
        (await read('cli')).map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, local(v)]))),
      );
      expect(await schema('app'), name).toEqual(await schema('cli'));
      const codecs = await rows(
        db,
        `SELECT DISTINCT compression FROM parquet_metadata(${sqlString(path(`app-${name}.parquet`))})`,
      );
      expect(
        codecs.map((c) => c.compression),
        name,
      ).toEqual(['SNAPPY']);
    }
  });
}

/** The report without what differs by nature: input paths vs file names, backend, timings. */
function comparableReport(report: Record<string, unknown>): Record<string, unknown> {
  const {
    inputs: _inputs,
    backend: _backend,
    seconds: _seconds,
    cpuSeconds: _cpu,
    signingSeconds: _signing,
    ...rest
  } = report;
  return rest;
}

describe('the app, end to end in Chromium', () => {
  it('passes SwiftShader over for its CPU workers by default, as the CLI does, and signs on it when WebGPU is chosen', async () => {
    const input = plantedInput();
    const { page } = await openPage('/');
    try {
      if (!/swiftshader/i.test(adapter)) {
        // A browser with a hardware adapter: auto signs on it (the software case is this machine's, and CI's).
        await page.waitForSelector('#backend-plan[data-plan="webgpu"]');
        return;
      }
      await page.waitForSelector('#backend-plan[data-plan="cpu"]');
      expect(await page.textContent('#backend-plan')).toMatch(
        /^Will sign on the CPU: the only WebGPU here is a software adapter \(WebGPU on google swiftshader.*“WebGPU, even a software adapter” uses it anyway\.$/,
      );
      await page.setInputFiles('#files', [input.jsonlGz, input.text]);
      await dedupInPage(page, input, APP_RUNS[0], await expectedOutcome(input, APP_RUNS[0]));
      expect(await page.locator('#backend').getAttribute('data-backend-kind')).toBe('cpu');
      // The report as a page (as --report-html writes it): every number it tags is the JSON report's.
      const report = JSON.parse(await download(page, '#download-report')) as Record<string, unknown>;
      const html = await download(page, '#download-report-html');
      const tagged = [...html.matchAll(/data-field="([^"]+)" data-value="([^"]*)"/g)];
      expect(tagged.length).toBeGreaterThan(10);
      for (const [, path, value] of tagged)
        expect(
          String(path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown>)[key], report)),
          path,
        ).toBe(value);
      expect(html).toContain('<mark class="shared">');
      expect(await page.textContent('#backend')).toMatch(/^Signed with CPU/);
      expect(await page.textContent('#backend-note')).toMatch(
        /^WebGPU here is a software adapter \(WebGPU on google swiftshader.*signed on the CPU: same signatures\./,
      );
      await expectProgressEnded(page, 'done');

      await page.selectOption('#backend-choice', 'webgpu');
      expect(await page.textContent('#backend-plan')).toMatch(
        /^Will sign with WebGPU on google swiftshader.*, as chosen \(a software adapter: slower than the CPU here\)\.$/,
      );
      expect(await page.getAttribute('#backend-plan', 'data-plan')).toBe('webgpu');
      expect(await clickDedup(page)).toMatch(/^Done/);
      expect(await page.locator('#backend').getAttribute('data-backend-kind')).toBe('webgpu');
    } finally {
      await page.close();
    }
  });

  it('dedups picked files on WebGPU in a worker like the CLI, file for file, without network requests', async () => {
    const input = plantedInput();
    const { page, requests } = await openPage('/');
    try {
      // SwiftShader is what this browser has: chosen explicitly, as auto passes it over (test above).
      await page.selectOption('#backend-choice', 'webgpu');
      await page.waitForSelector('#backend-plan[data-plan="webgpu"]');
      expect(await page.textContent('#backend-plan')).toMatch(/^Will sign with WebGPU on /);
      await page.setInputFiles('#files', [input.jsonlGz, input.text]);
      for (const run of APP_RUNS) {
        const expected = await expectedOutcome(input, run);
        await dedupInPage(page, input, run, expected);
        await expectProgressEnded(page, 'done');
        const backend = page.locator('#backend');
        expect(await backend.getAttribute('data-backend-kind')).toBe('webgpu');
        expect(await backend.textContent()).toMatch(/^Signed with WebGPU on /);
        expect(await page.locator('#backend-note').isHidden()).toBe(true);
        const lsh = defaultLshParams(run.threshold, 128, run.verify);
        expect(await page.textContent('#settings-used')).toContain(
          `threshold ${run.threshold}; ${lsh.bands} bands × ${lsh.rows} rows (chosen for the threshold)`,
        );
        // Byte for byte the CLI's files: kept documents, clusters, pairs; the report's fields.
        const cli = await cliOutputs(input, run);
        expect(await download(page, '#download-kept'), run.name).toBe(cli.kept);
        expect(await download(page, '#download-clusters'), run.name).toBe(cli.clusters);
        expect(await download(page, '#download-pairs'), run.name).toBe(cli.pairs);
        const report = JSON.parse(await download(page, '#download-report')) as Record<string, unknown>;
        expect(comparableReport(report), run.name).toEqual(comparableReport(cli.report));
        if (run === APP_RUNS[0]) await expectParquetLikeCli(page, input, run);
      }
      expectOnlyLocalRequests(requests);
      console.info(`browser e2e on ${adapter}: ${await page.locator('#backend').textContent()}`);
    } finally {
      await page.close();
    }
  });

  it('decides pairs on its stage workers from shared memory when cross-origin isolated: the same results', async () => {
    const input = plantedInput();
    const isolated = await serve(builtApp!, { isolated: true });
    const noGpu = await launchChromium({ webgpu: false });
    const page = await noGpu.context.newPage();
    try {
      await page.goto(`${isolated.origin}/`);
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      await page.waitForSelector('#backend-plan[data-plan="cpu"]');
      await page.setInputFiles('#files', [input.jsonlGz, input.text]);
      await dedupInPage(page, input, APP_RUNS[1], await expectedOutcome(input, APP_RUNS[1]));
      const scripts = page.workers().map((w) => w.url());
      expect(
        scripts.some((url) => /stageWorker/.test(url)),
        scripts.join(', '),
      ).toBe(true);
    } finally {
      await noGpu.close();
      await isolated.close();
    }
  });

  it('says before a run that it will sign on the CPU in a browser without WebGPU, and does', async () => {
    const input = plantedInput();
    const noGpu = await launchChromium({ webgpu: false });
    const page = await noGpu.context.newPage();
    try {
      await page.goto(`${server!.origin}/`);
      await page.waitForSelector('#backend-plan[data-plan="cpu"]');
      expect(await page.textContent('#backend-plan')).toMatch(
        /^Will sign on the CPU: WebGPU is not available here \(no adapter/,
      );
      expect(await page.textContent('header')).not.toMatch(/on your GPU/);
      await page.setInputFiles('#files', [input.jsonlGz, input.text]);
      await dedupInPage(page, input, APP_RUNS[0], await expectedOutcome(input, APP_RUNS[0]));
      expect(await page.locator('#backend').getAttribute('data-backend-kind')).toBe('cpu');
      // The report as a page (as --report-html writes it): every number it tags is the JSON report's.
      const report = JSON.parse(await download(page, '#download-report')) as Record<string, unknown>;
      const html = await download(page, '#download-report-html');
      const tagged = [...html.matchAll(/data-field="([^"]+)" data-value="([^"]*)"/g)];
      expect(tagged.length).toBeGreaterThan(10);
      for (const [, path, value] of tagged)
        expect(
          String(path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown>)[key], report)),
          path,
        ).toBe(value);
      expect(html).toContain('<mark class="shared">');
      expect(await page.locator('#backend-note').textContent()).toMatch(/^WebGPU is not available here \(no adapter/);
      // WebGPU chosen where there is none: said before the run, and the run stops with the reason.
      await page.selectOption('#backend-choice', 'webgpu');
      expect(await page.getAttribute('#backend-plan', 'data-plan')).toBe('unavailable');
      expect(await page.textContent('#backend-plan')).toMatch(
        /^WebGPU is not available here \(no adapter.*\): a run would stop\./,
      );
      expect(await clickDedup(page)).toMatch(/^webgpu backend unavailable: no adapter/);
      await expectProgressEnded(page, 'failed');
    } finally {
      await noGpu.close();
    }
  });

  it('removes near-duplicates of a reference set and names the reference document each one matched, as --contamination does', async () => {
    const dir = tempInputDir();
    const input = writePlantedInput(dir);
    // The reference set: edited copies of two corpus documents, and one unrelated text.
    const picks = [input.documents[2], input.documents[11]];
    const reference = join(dir, 'eval.jsonl');
    const records = [
      ...picks.map((d, i) => ({ id: `eval-${i}`, text: editWords(d.text, 1, 900 + i) })),
      { id: 'eval-other', text: corpus[500].text },
    ];
    writeFileSync(reference, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const { page } = await openPage('/');
    try {
      await page.setInputFiles('#files', [input.jsonlGz, input.text]);
      await page.getByText('More options').click();
      await page.setInputFiles('#reference', [reference]);
      expect(await clickDedup(page)).toMatch(/^Done/);
      const cliDir = tempInputDir();
      const contamination = join(cliDir, 'contamination.csv');
      const result = await runCliHere([
        'dedup',
        input.jsonlGz,
        input.text,
        '--against',
        reference,
        '--contamination',
        contamination,
        '--backend',
        'cpu',
        '-q',
      ]);
      expect(result.stderr).toBe('');
      const expected = readFileSync(contamination, 'utf8');
      expect(expected.trim().split('\n').length).toBeGreaterThanOrEqual(3); // header + both planted matches
      expect(await download(page, '#download-contamination')).toBe(expected);
      expect(Number(await page.textContent('[data-stat="contaminated"]'))).toBe(expected.trim().split('\n').length - 1);
      const rows = await page.locator('#reference-table tbody tr').evaluateAll((trs) =>
        trs.map((tr) =>
          Array.from(tr.querySelectorAll('td'))
            .slice(0, 2)
            .map((td) => td.textContent),
        ),
      );
      expect(rows).toEqual(
        expected
          .trim()
          .split('\n')
          .slice(1)
          .map((line) => line.split(',').slice(0, 2)),
      );
      expect(await page.textContent('#settings-used')).toContain('against 3 reference documents');
    } finally {
      await page.close();
    }
  });

  it('inspects a cluster: each removed document with its similarity to the kept one, and the two side by side', async () => {
    const input = plantedInput();
    const { page } = await openPage('/');
    try {
      await page.setInputFiles('#files', [input.jsonlGz, input.text]);
      await page.getByText('More options').click();
      await page.selectOption('#verify', 'exact');
      expect(await clickDedup(page)).toMatch(/^Done in [\d.]+ s\.$/);
      await screenshot(page.locator('#results'), 'results.png');
      await screenshot(page.locator('#s-curve svg'), 's-curve.png');
      await screenshot(page.locator('#histogram svg'), 'histogram.png');
      // The settings' S-curve follows threshold and k live: the optimizer's choice, as in Node.
      await page.fill('#threshold', '0.5');
      await page.fill('#k', '64');
      const live = defaultLshParams(0.5, 64, 'hybrid'); // the page's default verification
      await page.waitForSelector(`#s-curve[data-lsh="${live.bands}x${live.rows}"] [data-threshold="0.5"]`, {
        state: 'attached',
      });
      expect(await page.textContent('#s-curve svg title')).toBe(
        `S-curve of ${live.bands} bands × ${live.rows} rows at threshold 0.5`,
      );

      // From the keyboard: focus a near cluster's Inspect button and press Enter.
      const nearRow = page
        .locator('#clusters tbody tr', { has: page.locator('td:nth-child(2)', { hasText: /^near$/ }) })
        .first();
      await nearRow.getByRole('button', { name: /^Inspect cluster/ }).focus();
      await page.keyboard.press('Enter');
      await page.waitForSelector('#members:not([hidden])');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('members-heading');
      const removedRow = page
        .locator('#members-table tbody tr', { has: page.locator('td:nth-child(2)', { hasText: /^removed$/ }) })
        .first();
      const keptId = (await page
        .locator('#members-table tbody tr', { has: page.locator('td:nth-child(2)', { hasText: /^kept$/ }) })
        .locator('td')
        .first()
        .textContent())!;
      const removedId = (await removedRow.locator('td').first().textContent())!;
      const byName = new Map(input.documents.map((d) => [d.id, d.text]));
      const [keptText, removedText] = [byName.get(keptId)!, byName.get(removedId)!];
      // The similarities shown are the estimate (signature agreement, k = 128) and the exact Jaccard, computed here in Node.
      const params = makeParams({ k: 128 });
      const sets = [keptText, removedText].map((t) => shingleDocument(t, shingleOptionsOf(params)));
      const words = signBatchOnCpu(hashFamilyOf(params), pack(sets));
      let agree = 0;
      for (let i = 0; i < 128; i++)
        if (words[2 * i] === words[256 + 2 * i] && words[2 * i + 1] === words[256 + 2 * i + 1]) agree++;
      const exact = exactJaccard(sets[0], sets[1]);
      expect(exact).toBeLessThan(1);
      expect(await removedRow.locator('td:nth-child(3)').textContent()).toBe(
        `${exact.toFixed(3)} exact (estimate ${(agree / 128).toFixed(3)})`,
      );

      await removedRow.getByRole('button', { name: /^Compare/ }).click();
      await page.waitForSelector('#compare:not([hidden])');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('compare-heading');
      // The two panes scroll, so they are keyboard stops with names: Tab reaches each, PageDown scrolls it.
      let scrolled = 0;
      for (const [pane, name] of [
        ['compare-kept', `Kept: ${keptId}`],
        ['compare-removed', `Removed: ${removedId}`],
      ]) {
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.id)).toBe(pane);
        expect(await page.getByRole('region', { name, exact: true }).getAttribute('id')).toBe(pane);
        const scrolls = await page.locator(`#${pane}`).evaluate((el) => el.scrollHeight > el.clientHeight);
        if (scrolls) {
          await page.keyboard.press('PageDown');
          await page.waitForFunction((id) => document.getElementById(id)!.scrollTop > 0, pane);
          scrolled++;
        }
      }
      expect(scrolled).toBeGreaterThan(0); // a licence text of 250+ words overflows its pane
      // The legend's colours are the panes' own.
      const colours = await page.evaluate(() => {
        const bg = (selector: string) => getComputedStyle(document.querySelector(selector)!).backgroundColor;
        return {
          legend: [bg('#compare-legend mark'), bg('#compare-legend .unshared')],
          pane: [bg('#compare-removed mark'), bg('#compare-removed .unshared')],
        };
      });
      expect(colours.legend).toEqual(colours.pane);
      expect(colours.pane[0]).not.toBe(colours.pane[1]);
      // No serious or critical accessibility problem with results, inspector, comparison and every option shown.
      await page.locator('#more-options').evaluate((el) => ((el as HTMLDetailsElement).open = true));
      expect(await seriousViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await seriousViolations(page), 'dark colour scheme').toEqual([]);
      await page.emulateMedia({ colorScheme: 'light' });
      expect(await page.textContent('#compare-summary')).toContain(
        `Estimate ${(agree / 128).toFixed(3)} (signature agreement), exact Jaccard ${exact.toFixed(3)}`,
      );
      // The edited words are outside the highlighted (shared) runs, and both texts are shown in full.
      const unshared = (await page.locator('#compare-removed span.unshared').allTextContents()).join(' ');
      expect(unshared).toMatch(/edited\d/);
      expect(await page.locator('#compare-removed mark').count()).toBeGreaterThan(0);
      expect((await page.textContent('#compare-kept'))!.split(' ').length).toBe(
        keptText.split(/\s+/).filter(Boolean).length,
      );
      await screenshot(page.locator('#members'), 'inspector-members.png');
      await screenshot(page.locator('#compare'), 'inspector-compare.png');

      // A checkbox and its words stay on one line, wide and at phone width.
      const checkboxBesideWords = () =>
        page.locator('label.check').evaluateAll((labels) =>
          labels.map((label) => {
            const box = label.querySelector('input')!.getBoundingClientRect();
            const words = label.querySelector('span')!.getClientRects()[0];
            return {
              id: label.querySelector('input')!.id,
              beside: words.left >= box.right && words.top < box.bottom && words.bottom > box.top,
            };
          }),
        );
      expect(await checkboxBesideWords()).toEqual(
        ['nfkc', 'strip-punctuation', 'skip-invalid'].map((id) => ({ id, beside: true })),
      );

      // At phone width the cluster table becomes cards: nothing wider than the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await checkboxBesideWords()).toEqual(
        ['nfkc', 'strip-punctuation', 'skip-invalid'].map((id) => ({ id, beside: true })),
      );
      const overflow = await page.evaluate(() => {
        const table = document.getElementById('clusters')!;
        return table.scrollWidth - table.parentElement!.clientWidth;
      });
      expect(overflow).toBeLessThanOrEqual(1);
      await screenshot(page.locator('#clusters'), 'clusters-phone.png');
    } finally {
      await page.close();
    }
  });

  it('fits 1280 × 800: Dedup above the fold, long unbroken ids and texts wrap, Inspect buttons on screen', async () => {
    const dir = tempInputDir();
    // Ids and texts without a break: a URL, base64, a run of one letter (and its exact duplicate, so they are clustered).
    const url = `https://example.org/${'a1b2c3d4'.repeat(40)}`;
    const base64 = 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo'.repeat(80);
    const records = [
      { id: url, text: base64 },
      { id: `${url}-copy`, text: base64 },
      { id: 'x'.repeat(300), text: `${corpus[40].text} ${'z'.repeat(1500)}` },
      { id: 'y'.repeat(300), text: `${editWords(corpus[40].text, 2, 7)} ${'z'.repeat(1500)}` },
      ...corpus.slice(100, 110).map((d) => ({ id: d.id, text: d.text })),
    ];
    const path = join(dir, 'long.jsonl');
    writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const { page } = await openPage('/');
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.setInputFiles('#files', [path]);
      const dedup = await page.getByRole('button', { name: 'Dedup' }).boundingBox();
      expect(dedup!.y + dedup!.height, 'Dedup button below the fold').toBeLessThanOrEqual(800);
      await screenshot(page, 'page-1280x800.png');

      expect(await clickDedup(page)).toMatch(/^Done/);
      await expectNoSidewaysScroll(page, 'results');
      const inspect = page.getByRole('button', { name: /^Inspect cluster/ });
      expect(await inspect.count()).toBeGreaterThanOrEqual(1);
      const offScreen = await inspect.evaluateAll((buttons) =>
        buttons
          .map((b) => ({
            button: b.getBoundingClientRect(),
            box: b.closest('.table-scroll')!.getBoundingClientRect(),
            label: b.getAttribute('aria-label'),
          }))
          .filter(({ button, box }) => button.right > Math.min(box.right, window.innerWidth) || button.left < box.left)
          .map(({ label }) => label),
      );
      expect(offScreen).toEqual([]);
      expect(
        await page.locator('#clusters').evaluate((table) => table.scrollWidth - table.parentElement!.clientWidth),
      ).toBeLessThanOrEqual(1);

      await inspect.first().click();
      await page.waitForSelector('#members:not([hidden])');
      await page
        .getByRole('button', { name: /^Compare/ })
        .first()
        .click();
      await page.waitForSelector('#compare:not([hidden])');
      await expectNoSidewaysScroll(page, 'members and comparison');
      await screenshot(page.locator('#results'), 'long-strings-1280.png');
    } finally {
      await page.close();
    }
  });

  it("reads Parquet and zstd as the file hint says, and names the page's settings, not CLI flags, in messages", async () => {
    const input = plantedInput();
    const dir = tempInputDir();
    const parquet = join(dir, 'kept.parquet');
    const zst = join(dir, 'kept.jsonl.zst');
    for (const out of [parquet, zst])
      expect((await runCliHere(['dedup', input.jsonlGz, input.text, '-o', out, '--backend', 'cpu', '-q'])).stderr).toBe(
        '',
      );
    const kept = (await expectedOutcome(input, APP_RUNS[0])).assignment.counts.kept;
    const { page } = await openPage('/');
    try {
      const hint = (await page.textContent('#files-hint'))!;
      for (const word of ['JSON Lines', 'Parquet', 'plain text', 'gzip', 'zstd', '.zst']) expect(hint).toContain(word);
      await page.getByText('More options').click();
      expect(await page.getByLabel('Text field (JSON Lines key or Parquet column)').inputValue()).toBe('text');
      expect(await page.getByLabel('Id field (JSON Lines key or Parquet column)').inputValue()).toBe('id');
      for (const file of [parquet, zst]) {
        await page.setInputFiles('#files', [file]);
        expect(await clickDedup(page), file).toMatch(/^Done/);
        expect(await page.textContent('[data-stat="documents"]'), file).toBe(String(kept));
      }
      await page.setInputFiles('#files', [parquet]);
      await page.fill('#text-field', 'body');
      const message = await clickDedup(page);
      expect(message).toMatch(
        /^kept\.parquet: no text column "body" \(columns: .*\); choose one with the setting “Text field”$/,
      );
      expect(message).not.toMatch(/--/);
    } finally {
      await page.close();
    }
  });

  it("gives the CLI's messages for bad input, reads a binary .jsonl as the CLI does, skips empty files, and clears earlier results on an error", async () => {
    const dir = tempInputDir();
    const input = writePlantedInput(dir);
    const write = (name: string, content: string | Buffer): string => {
      writeFileSync(join(dir, name), content);
      return join(dir, name);
    };
    const good = readFileSync(input.jsonlGz);
    const truncated = write('cut.jsonl.gz', good.subarray(0, Math.floor(good.length / 2)));
    const array = write(
      'array.json',
      JSON.stringify(
        [
          { id: 1, text: 'one' },
          { id: 2, text: 'two' },
        ],
        null,
        2,
      ),
    );
    const badLine = '{"id": "b", "text": "unterminated}';
    const bad = write(
      'bad.jsonl',
      `{"id": "a", "text": "fine text here"}\n${badLine}\n{"id": "c", "text": "more fine text"}\n`,
    );
    const binary = write('blob.jsonl', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)));
    const empty = write('empty.jsonl', '');
    const { page } = await openPage('/');
    try {
      // A run with results and links first: the errors below must clear them.
      await page.setInputFiles('#files', [input.jsonlGz]);
      expect(await clickDedup(page)).toMatch(/^Done/);
      expect(await page.locator('#download-kept').getAttribute('href')).toMatch(/^blob:/);

      await page.setInputFiles('#files', [truncated]);
      expect(await clickDedup(page)).toMatch(/^cut\.jsonl\.gz: not a valid gzip stream \(/);
      await expectProgressEnded(page, 'failed');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('status');
      expect(await page.locator('#results').isHidden()).toBe(true);
      expect(await page.locator('#download-kept').getAttribute('href')).toBeNull();

      // A .json file holding one array of objects reads as the CLI reads it (the same first pass).
      await page.setInputFiles('#files', [array]);
      expect(await clickDedup(page)).toMatch(/^Done/);

      await page.setInputFiles('#files', [bad]);
      // The CLI's message; only the JSON parser's own words may differ between Node's V8 and Chromium's.
      const cliMessage = (parseJsonLine(badLine, 'bad.jsonl', 2, false, DEFAULT_READ) as InputError).message;
      // The CLI's words around the parser's own: what precedes its first "(" and what follows its last ";".
      const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const sameMessage = new RegExp(
        `^${escape(cliMessage.slice(0, cliMessage.indexOf('(') + 1))}.*${escape(cliMessage.slice(cliMessage.lastIndexOf(';')))}$`,
      );
      expect(await clickDedup(page)).toMatch(sameMessage);

      await page.setInputFiles('#files', [empty]);
      expect(await clickDedup(page)).toBe(
        'empty.jsonl: no documents to deduplicate (empty.jsonl: empty file, skipped)',
      );

      // A binary-looking .jsonl is JSON Lines, as the CLI reads it (issue 40, item 15): its first line fails the run
      // (the CLI's message), and under --skip-invalid its lines are skipped and counted as the CLI counts them.
      await page.setInputFiles('#files', [binary]);
      expect(await clickDedup(page)).toMatch(/^blob\.jsonl:1: malformed JSON/);
      const cli = await runCliHere([
        'dedup',
        bad,
        binary,
        empty,
        '--skip-invalid',
        '--dry-run',
        '--report',
        join(dir, 'skip.json'),
        '-q',
      ]);
      expect(cli.code, cli.stderr).toBe(0);
      const cliSkipped = (JSON.parse(readFileSync(join(dir, 'skip.json'), 'utf8')) as { invalidSkipped: number })
        .invalidSkipped;
      await page.getByText('More options').click();
      await page.check('#skip-invalid');
      await page.setInputFiles('#files', [bad, binary, empty]);
      expect(await clickDedup(page)).toMatch(/^Done/);
      expect(await page.textContent('[data-stat="documents"]')).toBe('2');
      const notes = await page.locator('#skipped li').allTextContents();
      expect(notes[0]).toBe('empty.jsonl: empty file, skipped');
      expect(notes.length).toBe(2);
      expect(notes[1]).toMatch(new RegExp(`^${cliSkipped} malformed lines skipped, e\\.g\\. `));
      expect(notes[1].replace(/^\d+ malformed lines skipped, e\.g\. /, '')).toMatch(sameMessage);
      expect(await page.textContent('#settings-used')).toContain('malformed lines skipped');

      // An invalid field is marked, described and focused; k allows what makeParams allows (4096), no more.
      expect(await page.getAttribute('#k', 'max')).toBe('4096');
      await page.fill('#k', '5000');
      await clickDedup(page);
      expect(await page.getAttribute('#k', 'aria-invalid')).toBe('true');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('k');
      expect(await page.textContent('#k-error')).toBe(
        '“Signature length k (hash functions)” must be an integer from 1 to 4096, got 5000.',
      );
      expect(await page.locator('#results').isHidden()).toBe(false); // a refused start leaves the last results alone
      await page.fill('#k', '64');
      expect(await page.getAttribute('#k', 'aria-invalid')).toBeNull();
      await page.fill('#bands', '20');
      await page.fill('#rows', '4');
      await clickDedup(page);
      expect(await page.getAttribute('#bands', 'aria-invalid')).toBe('true');
      expect(await page.textContent('#bands-error')).toBe(
        'bands × rows = 20 × 4 = 80 exceeds the signature length k = 64',
      );
    } finally {
      await page.close();
    }
  });
});

/** A downloaded .npy of unsigned integers: its header dict and its rows as decimal strings. */
function npyRows(bytes: Buffer): { header: string; rows: string[][] } {
  const headerLength = bytes.readUInt16LE(8);
  const header = bytes.subarray(10, 10 + headerLength).toString('latin1');
  const [, descr] = /'descr': '(<u[48])'/.exec(header)!;
  const [, count, cols] = /'shape': \((\d+), (\d+)\)/.exec(header)!.map(Number);
  const body = bytes.subarray(10 + headerLength);
  const copy = new Uint8Array(body).buffer;
  const values =
    descr === '<u8' ? Array.from(new BigUint64Array(copy), String) : Array.from(new Uint32Array(copy), String);
  expect(values.length).toBe(count * cols);
  return { header, rows: Array.from({ length: count }, (_, r) => values.slice(r * cols, (r + 1) * cols)) };
}

async function downloadBytes(page: Page, link: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(link)]);
  return readFile(await file.path());
}

describe('the datasketch schemes in the tab', () => {
  // One run per scheme; the seed left at the scheme's default (1) or edited; the CPU workers and WebGPU.
  const RUNS = [
    { scheme: 'oph', seed: undefined, backend: 'cpu' },
    { scheme: 'datasketch-affine32', seed: undefined, backend: 'cpu' },
    { scheme: 'datasketch-affine64', seed: undefined, backend: 'webgpu' },
    { scheme: 'datasketch-legacy', seed: '42', backend: 'webgpu' },
  ] as const;

  it("signs as gpudedup sign (oph too) and as datasketch 2.0.0's MinHash: the signatures download, byte for byte, and the CLI's pairs", async () => {
    const missingDatasketch = datasketchMissing();
    if (missingDatasketch !== undefined && !underCi()) {
      console.warn(`datasketch rows not compared: ${missingDatasketch}; ${DATASKETCH_HINT}`);
    } else if (missingDatasketch !== undefined)
      throw new Error(`${missingDatasketch} (CI is set, so this fails instead of skipping)`);
    const input = plantedInput();
    const { page, requests } = await openPage('/');
    try {
      await page.getByText('More options').click();
      expect(await seriousViolations(page), 'the form with the scheme picker open').toEqual([]);
      expect(await page.inputValue('#scheme')).toBe('classic');
      expect(await page.inputValue('#seed')).toBe('42');
      await page.setInputFiles('#files', [input.jsonlGz, input.text]);
      for (const run of RUNS) {
        await page.selectOption('#scheme', run.scheme);
        // As an absent --seed: the scheme's default (datasketch's 1, else 42), until the field is edited.
        const datasketch = run.scheme.startsWith('datasketch-');
        expect(await page.inputValue('#seed'), run.scheme).toBe(datasketch ? '1' : '42');
        if (run.seed !== undefined) await page.fill('#seed', run.seed);
        await page.selectOption('#backend-choice', run.backend);
        expect(await clickDedup(page), run.scheme).toMatch(/^Done/);
        expect(await page.locator('#backend').getAttribute('data-backend-kind'), run.scheme).toBe(run.backend);
        const seed = run.seed ?? (datasketch ? '1' : '42');
        expect(await page.textContent('#settings-used'), run.scheme).toContain(
          `scheme ${run.scheme}, k 128, seed ${seed}`,
        );

        const dir = tempInputDir();
        const npy = join(dir, 'cli.npy');
        const extra = run.seed === undefined ? [] : ['--seed', run.seed];
        const signed = await runCliHere([
          'sign',
          input.jsonlGz,
          input.text,
          '-o',
          npy,
          '--scheme',
          run.scheme,
          '--backend',
          'cpu',
          '-q',
          ...extra,
        ]);
        expect(signed.stderr, run.scheme).toBe('');
        const app = await downloadBytes(page, '#download-signatures');
        expect(app.equals(readFileSync(npy)), `${run.scheme}: the tab's signatures.npy is gpudedup sign's`).toBe(true);
        const { header, rows: appRows } = npyRows(app);
        expect(header, run.scheme).toContain(
          `'descr': '${['datasketch-affine64', 'oph'].includes(run.scheme) ? '<u8' : '<u4'}', 'fortran_order': False, 'shape': (31, 128)`,
        );
        if (missingDatasketch === undefined && datasketch) {
          const shingles = input.documents.map((d) =>
            shingleStrings(d.text, { mode: 'word', n: 5, normalize: DEFAULT_NORMALIZE }),
          );
          expect(shingles.filter((s) => s.length === 0).length).toBe(2); // the two empty documents: datasketch's empty MinHash
          expect(appRows, run.scheme).toEqual(
            datasketchRows(run.scheme.slice('datasketch-'.length), Number(seed), 128, shingles),
          );
        }

        // The dedup itself (estimates from these signatures) as the CLI's dedup --scheme.
        const cliDir = tempInputDir();
        const pairs = join(cliDir, 'pairs.csv');
        const dedup = await runCliHere([
          'dedup',
          input.jsonlGz,
          input.text,
          '-o',
          join(cliDir, 'kept.jsonl'),
          '--pairs',
          pairs,
          '--scheme',
          run.scheme,
          '--backend',
          'cpu',
          '-q',
          ...extra,
        ]);
        expect(dedup.stderr, run.scheme).toBe('');
        const cliPairs = readFileSync(pairs, 'utf8').replaceAll(`${dirname(input.text)}/`, '');
        expect(cliPairs.trim().split('\n').length, run.scheme).toBeGreaterThan(3);
        expect(await download(page, '#download-pairs'), run.scheme).toBe(cliPairs);
      }
      // A seed datasketch cannot take (numpy's RandomState: 32 bits) is refused at the field, naming the page's setting.
      await page.fill('#seed', '0x100000000');
      await page.getByRole('button', { name: 'Dedup' }).click();
      await page.waitForSelector('#seed[aria-invalid="true"]');
      expect(await page.textContent('#seed-error')).toMatch(
        /^the signing scheme datasketch-legacy takes datasketch's seed, an integer from 0 to 4294967295/,
      );
      // Back to classic: the seed left at datasketch's default goes back to 42.
      await page.fill('#seed', '1');
      await page.selectOption('#scheme', 'classic');
      expect(await page.inputValue('#seed')).toBe('42');
      expectOnlyLocalRequests(requests);
    } finally {
      await page.close();
    }
  });
});

describe('a large file in the tab, on the CPU path', () => {
  it('never blocks the main thread for 200 ms, cancels at once, and matches the CLI', async () => {
    const dir = tempInputDir();
    const path = join(dir, 'large.jsonl');
    const corpus = await writeLargeCorpus(path, 50 * 1024 * 1024);
    const { page } = await openPage('/', () => {
      const w = window as unknown as { longTasks: number[] };
      w.longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.longTasks.push(entry.duration);
      }).observe({ type: 'longtask' });
    });
    try {
      await page.setInputFiles('#files', [path]);
      await page.selectOption('#backend-choice', 'cpu');
      await page.getByText('More options').click();
      await page.fill('#k', '64');
      await page.selectOption('#verify', 'estimate'); // the run compared with runDedup below
      await page.selectOption('#cluster-check', 'none');

      // Cancel while signing: the worker is terminated at once, files and settings stay.
      await page.getByRole('button', { name: 'Dedup' }).click();
      await page.waitForFunction(() => {
        const bar = document.querySelector<HTMLProgressElement>('#progress li[data-stage="signing"] progress');
        return bar !== null && bar.value > 0;
      });
      const eta = page.locator('#progress li[data-stage="signing"] span').last();
      await page.waitForFunction((el) => /s left\)$/.test(el!.textContent ?? ''), await eta.elementHandle(), {
        timeout: 30_000,
      });
      // Leaving mid-run asks first (beforeunload); staying keeps the run going.
      const asked = page.waitForEvent('dialog', { timeout: 10_000 });
      await page.close({ runBeforeUnload: true });
      const dialog = await asked;
      expect(dialog.type()).toBe('beforeunload');
      await dialog.dismiss();
      expect(page.isClosed()).toBe(false);
      const cancelled = Date.now();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.waitForFunction(() => document.getElementById('status')!.textContent!.startsWith('Cancelled'));
      expect(Date.now() - cancelled).toBeLessThan(1000);
      await expectProgressEnded(page, 'cancelled');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('status');
      expect(await page.locator('#results').isHidden()).toBe(true);
      expect(await page.evaluate(() => (document.getElementById('files') as HTMLInputElement).files!.length)).toBe(1);
      expect(await page.inputValue('#k')).toBe('64');
      expect(await page.inputValue('#backend-choice')).toBe('cpu');

      // The whole run, watched for long tasks.
      await page.evaluate(() => ((window as unknown as { longTasks: number[] }).longTasks = []));
      const started = Date.now();
      expect(await clickDedup(page, 240_000)).toMatch(/^Done/);
      const seconds = (Date.now() - started) / 1000;
      const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
      console.info(
        `50 MB in the tab on the CPU: ${corpus.documents} documents in ${seconds.toFixed(1)} s (${(corpus.bytes / 1e6 / seconds).toFixed(1)} MB/s); long tasks: ${longTasks.map((t) => t.toFixed(0)).join(', ') || 'none'}`,
      );
      expect(Math.max(0, ...longTasks)).toBeLessThan(200);
      await expectProgressEnded(page, 'done');
      // After the run, leaving asks nothing.
      expect(await page.evaluate(() => window.dispatchEvent(new Event('beforeunload', { cancelable: true })))).toBe(
        true,
      );

      const params = makeParams({ k: 64 });
      const expected = await runDedup({
        inputs: [path],
        read: DEFAULT_READ,
        params,
        backend: 'cpu',
        threshold: 0.8,
        lsh: defaultLshParams(0.8, 64, 'estimate'),
        verify: 'estimate',
        clusterCheck: 'none',
        keep: { kind: 'first' },
        against: [],
      });
      const counts = expected.assignment.counts;
      expect(counts.documents).toBe(corpus.documents);
      expect(counts.exactDuplicates).toBeGreaterThan(corpus.documents * 0.03);
      expect(counts.nearDuplicateClusters).toBeGreaterThan(corpus.documents * 0.03);
      for (const key of STATS)
        expect(Number((await page.textContent(`[data-stat="${key}"]`))!.replace(/,/g, '')), key).toBe(counts[key]);
    } finally {
      await page.close();
    }
  }, 400_000);
});

describe('SimHash, count and idf weights in the tab', () => {
  // As `gpudedup dedup --scheme simhash --max-hamming H`, `--weights counts` and `--weights idf`: the same files.
  const RUNS = [
    {
      form: { scheme: 'simhash', 'max-hamming': '15', verify: 'exact' },
      flags: ['--scheme', 'simhash', '--max-hamming', '15', '--verify', 'exact'],
      used: 'scheme simhash, k 64',
    },
    {
      form: { scheme: 'classic', weights: 'counts', verify: 'hybrid' },
      flags: ['--weights', 'counts'],
      used: 'weights counts',
    },
    // The tab counts the files' document frequencies as the CLI's idf pass does: the same table, so the same files.
    {
      form: { scheme: 'classic', weights: 'idf', verify: 'hybrid' },
      flags: ['--weights', 'idf'],
      used: 'weights idf',
    },
  ] as const;

  it('dedups as the CLI does with the same scheme and weights: kept, clusters and pairs', async () => {
    const input = plantedInput();
    const { page, requests } = await openPage('/');
    try {
      await page.getByText('More options').click();
      await page.setInputFiles('#files', [input.jsonlGz, input.text]);
      await page.selectOption('#backend-choice', 'cpu');
      for (const run of RUNS) {
        for (const [id, value] of Object.entries(run.form)) {
          if ((await page.locator(`#${id}`).evaluate((el) => el.tagName)) === 'SELECT')
            await page.selectOption(`#${id}`, value);
          else await page.fill(`#${id}`, value);
        }
        expect(await clickDedup(page), run.used).toMatch(/^Done/);
        expect(await page.textContent('#settings-used'), run.used).toContain(run.used);
        const dir = tempInputDir();
        const out = (name: string) => join(dir, name);
        const cli = await runCliHere([
          'dedup',
          input.jsonlGz,
          input.text,
          '-o',
          out('kept.jsonl'),
          '--clusters',
          out('clusters.csv'),
          '--pairs',
          out('pairs.csv'),
          '--backend',
          'cpu',
          '-q',
          ...run.flags,
        ]);
        expect(cli.stderr, run.used).toBe('');
        const relative = (text: string) => text.replaceAll(`${dirname(input.text)}/`, '');
        const pairs = relative(readFileSync(out('pairs.csv'), 'utf8'));
        expect(pairs.trim().split('\n').length, `${run.used}: pairs to compare`).toBeGreaterThan(3);
        expect(await download(page, '#download-pairs'), run.used).toBe(pairs);
        expect(await download(page, '#download-clusters'), run.used).toBe(
          relative(readFileSync(out('clusters.csv'), 'utf8')),
        );
        expect(await download(page, '#download-kept'), run.used).toBe(readFileSync(out('kept.jsonl'), 'utf8'));
      }
      expectOnlyLocalRequests(requests);
    } finally {
      await page.close();
    }
  });
});
