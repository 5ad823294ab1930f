import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll } from 'vitest';
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
  app: FastifyInstance;
  baseUrl: string;
  browser: Browser;
  /** A fresh context and page; console errors and page errors are collected in `errors`. */
  newPage(viewport?: { width: number; height: number }): Promise<{ page: Page; context: BrowserContext; errors: string[] }>;
}

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
  return {
    app,
    baseUrl,
    browser,
    async newPage(viewport = DESKTOP) {
      const context = await browser.newContext({ viewport, baseURL: baseUrl });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(msg.text());
      });
      page.on('pageerror', (err) => errors.push(err.message));
      return { page, context, errors };
    },
  };
}
