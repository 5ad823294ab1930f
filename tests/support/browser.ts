import fs from 'node:fs';
import path from 'node:path';
import type { DhrApp } from '../../src/server/app';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach } from 'vitest';
import { Trouble } from './trouble';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../scripts/lib/chromium';
import type { Config } from '../../src/server/config';
import { createTestApp } from './app';

export const hasChromium = fs.existsSync(CHROMIUM_PATH);
const webBuilt = fs.existsSync(path.resolve('dist/web/index.html'));
/** Browser suites run only when Chromium and the web build are there; `npm test` says when they are skipped. */
export const canRunBrowser = hasChromium && webBuilt;

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1366, height: 900 };

export interface BrowserHarness {
  app: DhrApp;
  baseUrl: string;
  browser: Browser;
  /** A fresh context and page; console errors and page errors are collected in `errors`. */
  newPage(viewport?: { width: number; height: number }): Promise<{ page: Page; context: BrowserContext; errors: string[] }>;
  /**
   * Declares that the current test makes its pages log console errors or see failed requests matching
   * `pattern` (a read made to fail, an outage): anything else still fails the test.
   */
  expectPageErrors(pattern?: RegExp): void;
}

/** Chromium's console line for an HTTP answer with an error status. */
const ANSWER_LOG = /^Failed to load resource: the server responded with a status of \d{3}/;

/**
 * Starts the app on a loopback port (fresh database) and a headless Chromium, both closed after the file.
 * `overrides` reach the config, e.g. `{ backgroundJobs: true }` for suites that need the Icecast poller.
 */
export async function startBrowserHarness(env: Record<string, string> = {}, overrides: Partial<Config> = {}): Promise<BrowserHarness> {
  // WEB_ROOT serves another build than dist/web (a private build while others rebuild dist/web).
  // Every page of a browser suite connects from 127.0.0.1: the per-address cap on live streams, meant
  // for one visitor's tabs, would refuse the suite's many pages as if they were one client.
  const app = await createTestApp({ SSE_MAX_PER_IP: '1000', ...env }, overrides, process.env.WEB_ROOT ? { webRoot: path.resolve(process.env.WEB_ROOT) } : {});
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  // Playwright gives every launch a fresh temporary profile (a fresh --user-data-dir).
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_FLAGS, '--disable-quic', '--autoplay-policy=no-user-gesture-required'],
  });
  afterAll(async () => {
    await browser.close();
  });
  // Console errors, page errors and requests to the app that failed without an answer, on every page
  // of every context the suite opens (newPage's, and the ones a test makes with browser.newContext).
  const trouble = new Trouble('The pages had errors', 'expectPageErrors');
  afterEach(() => trouble.check());
  const pageErrors = new WeakMap<Page, string[]>();
  const watch = (page: Page) => {
    const errors: string[] = [];
    pageErrors.set(page, errors);
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      errors.push(msg.text());
      // Chromium logs every 4xx/5xx answer as a console error; answers are judged on the server
      // (createTestApp fails a test on a 5xx its route does not declare), so only the page's own count here.
      if (!ANSWER_LOG.test(msg.text())) trouble.add(`console error: ${msg.text()}`);
    });
    page.on('pageerror', (err) => {
      errors.push(err.message);
      trouble.add(`page error: ${err.message}`);
    });
    page.on('requestfailed', (req) => {
      const why = req.failure()?.errorText ?? '';
      // A page that navigates away or closes cancels its open requests (streams, SSE): not a failure.
      if (why.includes('ERR_ABORTED') || !req.url().startsWith(baseUrl)) return;
      trouble.add(`${req.method()} ${req.url().slice(baseUrl.length)} failed: ${why}`);
    });
  };
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.on('page', watch);
    return context;
  };
  return {
    app,
    baseUrl,
    browser,
    async newPage(viewport = DESKTOP) {
      const context = await browser.newContext({ viewport, baseURL: baseUrl });
      const page = await context.newPage();
      if (!pageErrors.has(page)) watch(page);
      return { page, context, errors: pageErrors.get(page) ?? [] };
    },
    expectPageErrors(pattern = /./) {
      trouble.expect(pattern);
    },
  };
}
