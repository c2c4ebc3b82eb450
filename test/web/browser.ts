/**
 * Real-browser test support: build the app with Vite (plus the test-only
 * parity page), serve it on 127.0.0.1, and drive Debian's Chromium, whose
 * SwiftShader gives a WebGPU adapter without a GPU. Playwright never downloads
 * a browser here; scripts/install-chromium.sh installs the system one.
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { AxeResults } from 'axe-core';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import type {} from '../support/globalSetup.js'; // its ProvidedContext: inject('sharedDir')

export const REPO = resolve(import.meta.dirname, '../..');
export const CHROMIUM = '/usr/bin/chromium';
export const ENABLE_HINT = `To run the browser tests, install Debian's Chromium as root: scripts/install-chromium.sh`;

export const underCi = (): boolean => !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());

/** Builds web/ (index.html and the test-only parity.html) into a fresh temporary folder. */
export async function buildApp(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'gpudedup-web-'));
  const { build } = await import('vite');
  await build({
    configFile: join(REPO, 'web/vite.config.ts'),
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      rolldownOptions: { input: { index: join(REPO, 'web/index.html'), parity: join(REPO, 'web/parity.html') } },
    },
  });
  return outDir;
}

/**
 * The app built once per Vitest run, for every test file that serves it: in the run's shared folder
 * (test/support/globalSetup.ts), built by the first file that needs it (two files starting together may
 * both build it: the later build is dropped) and removed when the run ends. Without that folder, a build
 * of its own. Give it back with releaseApp.
 */
export async function sharedApp(): Promise<string> {
  const shared = inject('sharedDir');
  if (shared === undefined) return buildApp();
  const app = join(shared, 'web-app');
  if (existsSync(join(app, 'index.html'))) return app;
  const built = await buildApp();
  try {
    renameSync(built, app); // atomic: other files see the whole build or none
  } catch (error) {
    rmSync(built, { recursive: true, force: true });
    if (!existsSync(join(app, 'index.html'))) throw error;
  }
  return app;
}

/** Removes a build of sharedApp's own; the run's shared build stays for the other files. */
export function releaseApp(app: string): void {
  const shared = inject('sharedDir');
  if (shared === undefined || !app.startsWith(join(shared, '/'))) rmSync(app, { recursive: true, force: true });
}

export interface StaticServer {
  readonly origin: string;
  /** Paths the server was asked for, in order. */
  readonly served: string[];
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * A minimal static server for the built files on a random port of 127.0.0.1 (a secure context, so WebGPU is exposed).
 * `isolated`: every response carries COOP and COEP, so the page is cross-origin isolated (SharedArrayBuffer).
 */
export async function serve(root: string, options: { isolated?: boolean } = {}): Promise<StaticServer> {
  const isolation = options.isolated
    ? { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' }
    : {};
  const served: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    served.push(path);
    const file = normalize(join(root, path === '/' ? 'index.html' : path));
    if (!file.startsWith(root)) {
      response.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) =>
        response
          .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', ...isolation })
          .end(body),
      () => response.writeHead(404).end('not found'),
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    served,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Headless Chromium with WebGPU enabled (SwiftShader), in a fresh profile that
 * is deleted on close. Without `webgpu`, Chromium on Linux finds no adapter:
 * a browser without WebGPU, in the page and in its workers alike.
 */
export async function launchChromium(options: { webgpu?: boolean } = {}): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'gpudedup-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    acceptDownloads: true,
    args: [
      ...(options.webgpu === false ? [] : ['--enable-unsafe-webgpu']),
      '--no-sandbox',
      '--headless',
      '--disable-gpu-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export function chromiumMissing(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is missing`;
}

export interface CorpusDocument {
  readonly id: string;
  readonly text: string;
}

/** data/sample.jsonl.gz: SPDX licence texts, in file order. */
export async function loadCorpus(): Promise<CorpusDocument[]> {
  const text = gunzipSync(await readFile(join(REPO, 'data/sample.jsonl.gz'))).toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const record = JSON.parse(line) as { id: string; text: string };
      return { id: record.id, text: record.text };
    });
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page, one line each (axe injected once per page). */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run(context: Document): Promise<AxeResults> } }).axe.run(document),
  );
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
