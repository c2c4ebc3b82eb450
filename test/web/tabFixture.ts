/**
 * The set-up every tab test file shares: the Vite build of web/ served from
 * 127.0.0.1 and a headless Chromium without WebGPU (the tab signs on the CPU),
 * made once before the file's tests and closed after them. Without
 * /usr/bin/chromium every test skips with the install hint, or fails under CI.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import {
  chromiumMissing,
  ENABLE_HINT,
  launchChromium,
  releaseApp,
  serve,
  sharedApp,
  underCi,
  type Browser,
  type StaticServer,
} from './browser.js';

export interface TabFixture {
  /** Where the app is served, e.g. http://127.0.0.1:PORT (no trailing slash). */
  readonly origin: string;
  /** A new, blank page in the shared browser (listeners can be attached before it loads the app). */
  newPage(): Promise<Page>;
}

export function useTab(): TabFixture {
  const missing = chromiumMissing();
  let browser: Browser | undefined;
  let server: StaticServer | undefined;
  let builtApp: string | undefined;

  beforeAll(async () => {
    if (missing !== undefined) return;
    builtApp = await sharedApp();
    server = await serve(builtApp);
    browser = await launchChromium({ webgpu: false });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (builtApp !== undefined) releaseApp(builtApp);
  });

  beforeEach((context) => {
    if (missing === undefined) return;
    if (underCi()) throw new Error(`${missing}. ${ENABLE_HINT} (CI is set, so this fails instead of skipping)`);
    context.skip(`${missing}. ${ENABLE_HINT}`);
  });

  return {
    get origin() {
      if (server === undefined) throw new Error('the tab is not served (its beforeAll did not run)');
      return server.origin;
    },
    newPage: async () => {
      if (browser === undefined) throw new Error('no browser (its beforeAll did not run)');
      return browser.context.newPage();
    },
  };
}

/**
 * Runs `act` (a click, a key press), then waits until the status line `status` (a selector such as '#index-status')
 * has settled once more (its data-settled count, raised when a press of its button ends: done, failed, refused or
 * stopped); the status's text.
 */
export async function settleAfter(
  page: Page,
  status: string,
  act: () => Promise<unknown>,
  timeout = 120_000,
): Promise<string> {
  const settled = Number((await page.getAttribute(status, 'data-settled')) ?? 0);
  await act();
  await page.waitForFunction(
    ([id, n]) => Number(document.getElementById(id as string)!.dataset.settled ?? 0) > (n as number),
    [status.slice(1), settled],
    { timeout },
  );
  return (await page.textContent(status)) ?? '';
}

/** Clicks `button` and waits until `status` has settled once more (settleAfter); the status's text. */
export function press(page: Page, button: string, status: string, timeout?: number): Promise<string> {
  return settleAfter(page, status, () => page.click(button), timeout);
}
