import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMember, type TestMember } from '../support/app';
import { canRunBrowser, DESKTOP, startBrowserHarness, type BrowserHarness } from '../support/browser';

/** Stream links that live 3 s (MIX_STREAM_LINK_TTL_S): a demo mix (24 s) outlives several of them. */
const LINK_TTL_S = 3;

describe.skipIf(!canRunBrowser)('VIP mix playback across stream link lifetimes', () => {
  let h: BrowserHarness;
  let dhr1: TestMember;

  beforeAll(async () => {
    h = await startBrowserHarness({
      DATA_DIR: await fs.mkdtemp(path.join(os.tmpdir(), 'dhr-vip-renewal-e2e-')),
      MIX_STREAM_LINK_TTL_S: String(LINK_TTL_S),
    });
    dhr1 = await createMember(h.app, { subscriptionTier: 'dhr1', subscriptionStatus: 'active' });
    // The demo mixes' listening copies (background jobs are off in tests).
    await h.app.modules.mixes.renditions.drain();
  });

  async function openVip() {
    const { page, context, errors } = await h.newPage(DESKTOP);
    const eq = dhr1.cookie.indexOf('=');
    await context.addCookies([{ name: dhr1.cookie.slice(0, eq), value: dhr1.cookie.slice(eq + 1), url: h.baseUrl }]);
    await page.goto('/vip');
    return { page, context, errors };
  }

  const audioState = (page: Page) =>
    page.evaluate(() => {
      const a = document.querySelector('audio');
      return { src: a?.src ?? '', time: a?.currentTime ?? 0, paused: a?.paused ?? true };
    });

  it('renews the link before each expiry and plays on at the same position, every time', async () => {
    const { page, errors } = await openVip();
    const linkReads: number[] = [];
    page.on('response', (res) => {
      if (new URL(res.url()).pathname === '/api/stream/mix-midnight-drift') linkReads.push(res.status());
    });
    await page.locator('[data-testid="mix-card"]', { hasText: 'Midnight Drift' }).getByRole('button', { name: 'Play Midnight Drift' }).click();
    await page.getByTestId('now-playing').waitFor();
    await expect.poll(async () => (await audioState(page)).time, { timeout: 15_000 }).toBeGreaterThan(0.2);

    // Sample the element through more than three link lifetimes: each new src is a fresh link, and the
    // position never goes back (each renewal resumes where the last link stopped).
    const srcs: string[] = [(await audioState(page)).src];
    const started = Date.now();
    let last = 0;
    let furthest = 0;
    while (Date.now() - started < (3 * LINK_TTL_S + 2) * 1000) {
      const now = await audioState(page);
      if (now.src && now.src !== srcs.at(-1)) srcs.push(now.src);
      // A renewal restarts the load at the same position: a read in between may lag a little, never restart the mix.
      expect(now.time).toBeGreaterThan(last - 1);
      last = now.time;
      furthest = Math.max(furthest, now.time);
      await page.waitForTimeout(100);
    }
    // At least three renewals after the first link, each a different signed link, every one answered.
    expect(new Set(srcs).size).toBeGreaterThanOrEqual(4);
    for (const src of srcs) expect(src).toMatch(/\/media\/mixes\/mix-midnight-drift\/stream\?token=/);
    expect(linkReads.length).toBeGreaterThanOrEqual(4);
    expect(linkReads.every((s) => s === 200)).toBe(true);
    // Playback went on past three lifetimes and is still going.
    expect(furthest).toBeGreaterThan(3 * LINK_TTL_S - 1);
    const before = (await audioState(page)).time;
    await expect.poll(async () => (await audioState(page)).time, { timeout: 5_000 }).toBeGreaterThan(before + 0.5);
    expect((await audioState(page)).paused).toBe(false);
    expect(await page.getByRole('alert').filter({ hasText: 'Audio Error' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('stops with an error and Retry when a renewal fails, without asking again and again; Retry plays on', async () => {
    const { page, context } = await openVip();
    let asked = 0;
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === '/api/stream/mix-harbour-lights') asked++;
    });
    await page.locator('[data-testid="mix-card"]', { hasText: 'Harbour Lights' }).getByRole('button', { name: 'Play Harbour Lights' }).click();
    await expect.poll(async () => (await audioState(page)).time, { timeout: 15_000 }).toBeGreaterThan(0.2);
    // From now on the link cannot be renewed.
    await context.route('**/api/stream/mix-harbour-lights', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"service_unavailable","message":"down"}}' }),
    );
    const failed = page.getByTestId('now-playing').getByRole('alert').filter({ hasText: 'Audio Error - File Not Available' });
    await failed.waitFor({ timeout: LINK_TTL_S * 1000 + 10_000 });
    expect((await audioState(page)).paused).toBe(true);
    const stoppedAt = (await audioState(page)).time;
    // No loop: nothing more is asked while the error shows.
    const askedThen = asked;
    await page.waitForTimeout(LINK_TTL_S * 1000 + 1000);
    expect(asked).toBe(askedThen);

    await context.unroute('**/api/stream/mix-harbour-lights');
    await failed.getByRole('button', { name: 'Retry' }).click();
    await failed.waitFor({ state: 'detached' });
    await expect.poll(async () => (await audioState(page)).time, { timeout: 10_000 }).toBeGreaterThan(stoppedAt + 0.5);
    expect((await audioState(page)).time).toBeGreaterThanOrEqual(stoppedAt - 0.5);
  });
});
