import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatBytes } from '../../src/web/features/vip/lib/mix-access';
import { createMember, type TestMember } from '../support/app';
import { canRunBrowser, DESKTOP, PHONE, startBrowserHarness, type BrowserHarness } from '../support/browser';

/** Set SCREENSHOT_DIR to keep PNGs of the pages at both widths (for looking at them, not for asserting). */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR;

describe.skipIf(!canRunBrowser)('the VIP mix library in the browser', () => {
  let h: BrowserHarness;
  let dhr1: TestMember;
  let vip: TestMember;
  let admin: TestMember;

  beforeAll(async () => {
    h = await startBrowserHarness({ DATA_DIR: await fs.mkdtemp(path.join(os.tmpdir(), 'dhr-vip-e2e-')) });
    dhr1 = await createMember(h.app, { subscriptionTier: 'dhr1', subscriptionStatus: 'active' });
    vip = await createMember(h.app, { subscriptionTier: 'vip', subscriptionStatus: 'active' });
    admin = await createMember(h.app, { isAdmin: true });
    // The demo mixes' listening copies (background jobs are off in tests).
    await h.app.modules.mixes.renditions.drain();
  });

  async function open(url: string, member: TestMember | null, viewport = DESKTOP): Promise<{ page: Page; errors: string[] }> {
    const { page, context, errors } = await h.newPage(viewport);
    if (member) {
      const eq = member.cookie.indexOf('=');
      await context.addCookies([{ name: member.cookie.slice(0, eq), value: member.cookie.slice(eq + 1), url: h.baseUrl }]);
    }
    await page.goto(url);
    return { page, errors };
  }

  const card = (page: Page, title: string) => page.locator('[data-testid="mix-card"]', { hasText: title });

  it('lets a DHR1 member play a mix (time advances) from its listening copy, and tells them to upgrade to download', async () => {
    const { page, errors } = await open('/vip', dhr1);
    const media: { url: string; type: string; status: number }[] = [];
    page.on('response', (res) => {
      if (res.url().includes('/media/mixes/')) media.push({ url: res.url(), type: res.headers()['content-type'] ?? '', status: res.status() });
    });
    await expect.poll(() => page.getByTestId('access-message').textContent()).toBe('Upgrade to VIP (€10+) to download mixes');
    await card(page, 'Midnight Drift').getByRole('button', { name: 'Play Midnight Drift' }).click();
    await page.getByTestId('now-playing').waitFor();
    await expect.poll(() => page.getByTestId('toast').first().textContent()).toBe('Now Playing: Midnight Drift');
    // The position moves while the mix plays.
    await expect.poll(async () => page.evaluate(() => document.querySelector('audio')?.currentTime ?? 0), { timeout: 15_000 }).toBeGreaterThan(1);
    await expect.poll(() => page.getByTestId('position').textContent()).not.toBe('0:00');
    // The player's source is the session-bound stream link, and what it got is the MP3 listening copy (the master is a WAV).
    expect(await page.evaluate(() => document.querySelector('audio')?.currentSrc ?? '')).toMatch(/\/media\/mixes\/mix-midnight-drift\/stream\?token=/);
    expect(media.length).toBeGreaterThan(0);
    for (const m of media) expect(m).toMatchObject({ type: 'audio/mpeg' });
    expect(media.some((m) => m.status === 200 || m.status === 206)).toBe(true);
    // Download is a locked, explained action with the way to upgrade, not an active button answering with a toast.
    const locked = card(page, 'Midnight Drift').getByRole('link', { name: 'Download Midnight Drift: VIP subscription required for downloads. Upgrade' });
    expect(await locked.getAttribute('href')).toBe('/auth');
    await card(page, 'Midnight Drift').getByText('Downloads are a VIP benefit.').waitFor();
    expect(await card(page, 'Midnight Drift').getByRole('link', { name: 'Upgrade', exact: true }).getAttribute('href')).toBe('/auth');
    expect(await card(page, 'Midnight Drift').getByRole('button', { name: 'Download Midnight Drift' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Close player' }).click();
    await page.getByTestId('now-playing').waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('lets a VIP download twice with the spec messages, then disables the download buttons', async () => {
    const { page, errors } = await open('/vip', vip);
    await expect.poll(() => page.getByTestId('access-message').textContent()).toBe('2 of 2 downloads remaining today');
    for (const [title, left, n] of [
      ['Harbour Lights', '1 of 2 downloads remaining today', 1],
      ['Warehouse 13', 'Daily download limit reached (2/day, resets tomorrow)', 0],
    ] as const) {
      const downloaded = page.waitForEvent('download');
      await card(page, title)
        .getByRole('button', { name: `Download ${title}` })
        .click();
      const file = await downloaded;
      expect(file.suggestedFilename()).toMatch(new RegExp(`${title}\\.wav$`));
      // '1 download', '0 downloads'.
      await expect.poll(() => page.getByTestId('toast').allTextContents()).toContain(`Download started! ${n} download${n === 1 ? '' : 's'} remaining today`);
      await expect.poll(() => page.getByTestId('access-message').textContent()).toBe(left);
    }
    // No download left: every card's download button is disabled and says when downloads come back.
    const used = card(page, 'Low Tide').getByRole('button', { name: 'No downloads left today — resets at 00:00 (Dublin)' });
    await used.waitFor();
    expect(await used.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: /^Download / }).count()).toBe(0);
    expect(await page.getByTestId('no-downloads-left').count()).toBe(await page.getByTestId('mix-card').count());
    expect(await page.getByText(/\b0 dl\b/).count()).toBe(0);
    // The server agrees: a third download is refused there too.
    const third = await page.evaluate(async (userId) => {
      const res = await fetch('/api/download/mix-low-tide', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userId }),
      });
      return { status: res.status, body: await res.json() };
    }, vip.user.id);
    expect(third.status).toBe(429);
    expect(third.body.error.message).toBe('Daily download limit reached (2 per day)');
    expect(errors.filter((e) => !e.includes('429'))).toEqual([]);
  });

  it("shows the library's own figures: size and playing time summed from its mixes", async () => {
    const { page, errors } = await open('/vip', vip);
    const mixes = (await h.app.inject({ url: '/api/vip-mixes', headers: { cookie: vip.cookie } })).json<{ fileSize: number; duration: number }[]>();
    expect(mixes.length).toBeGreaterThan(0);
    const tile = (label: string) => page.locator('div.glass', { has: page.getByText(label, { exact: true }) });
    await expect.poll(() => tile('Exclusive mixes').locator('p').nth(1).textContent()).toBe(String(mixes.length));
    expect(await tile('Library size').locator('p').nth(1).textContent()).toBe(formatBytes(mixes.reduce((n, m) => n + m.fileSize, 0)));
    const hours = mixes.reduce((n, m) => n + m.duration, 0) / 3600;
    expect(await tile('Playing time').locator('p').nth(1).textContent()).toBe(`${hours < 10 ? Number(hours.toFixed(1)) : Math.round(hours)} h`);
    expect(await page.getByText(/Growing past|members$/).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('searches by title or artist and filters by genre', async () => {
    const { page } = await open('/vip', null);
    await page.getByRole('searchbox', { name: 'Search mixes' }).fill('KOFI');
    await expect.poll(() => page.getByTestId('mix-card').count()).toBe(1);
    await page.getByRole('searchbox', { name: 'Search mixes' }).fill('');
    await page.getByRole('combobox', { name: 'Genre' }).selectOption('minimal');
    await expect.poll(() => page.getByTestId('mix-card').allTextContents()).toEqual([expect.stringContaining('Low Tide')]);
    await expect.poll(() => page.getByRole('heading', { name: 'Become A VIP Member' }).count()).toBe(1);
  });

  it('says the library could not be loaded, with Retry, instead of showing it empty', async () => {
    const { page, context } = await h.newPage(DESKTOP);
    await context.route('**/api/vip-mixes', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"service_unavailable","message":"down"}}' }),
    );
    await page.goto('/vip');
    const failed = page.getByRole('alert').filter({ hasText: "Couldn't load the mix library." });
    await failed.waitFor({ timeout: 30_000 });
    expect(await page.getByText('No mixes yet.').count()).toBe(0);
    await context.unroute('**/api/vip-mixes');
    await failed.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => page.getByTestId('mix-card').count(), { timeout: 15_000 }).toBeGreaterThan(0);
  });

  it('shows admins the links with Edit Links, and the storage status', async () => {
    const { page, errors } = await open('/vip-admin', admin);
    await page.getByTestId('admin-mix').first().waitFor();
    expect(await page.locator('code', { hasText: 'mixes/mix-midnight-drift.wav' }).count()).toBe(1);
    for (const href of ['/sync', '/bulk-import', '/storage-setup', '/vip'])
      expect(await page.locator(`nav[aria-label="VIP admin links"] a[href="${href}"]`).count()).toBe(1);
    // Each mix's listening copy and plays; a failed copy shows its reason and Retry queues it again.
    const drift = page.getByTestId('admin-mix').filter({ hasText: 'Midnight Drift' });
    await expect.poll(() => drift.getByTestId('rendition').textContent()).toBe('Listening copy: ready');
    await expect.poll(() => drift.textContent()).toMatch(/\d+ plays?/);
    const { vipMixes } = await import('../../src/server/db/schema');
    const { eq } = await import('drizzle-orm');
    await h.app.database.db
      .update(vipMixes)
      .set({ renditionState: 'failed', renditionError: 'Install ffmpeg to make listening copies; until then the mix plays for VIP members only' })
      .where(eq(vipMixes.id, 'mix-harbour-lights'));
    await page.reload();
    const harbour = page.getByTestId('admin-mix').filter({ hasText: 'Harbour Lights' });
    await expect.poll(() => harbour.getByTestId('rendition').textContent()).toContain('Listening copy: failedInstall ffmpeg to make listening copies');
    await harbour.getByRole('button', { name: 'Retry the listening copy of Harbour Lights' }).click();
    await expect.poll(() => harbour.getByTestId('rendition').textContent()).toBe('Listening copy: queued');
    const row = page.getByTestId('admin-mix').filter({ hasText: 'Low Tide' });
    await row.getByRole('button', { name: 'Edit Links' }).click();
    await row.getByRole('textbox', { name: 'Storage link' }).fill('');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.textContent()).toContain('Not set');
    const status = await open('/storage-setup', admin);
    await expect.poll(() => status.page.getByTestId('storage-status').textContent()).toContain('Local folder: reachable');
    expect([...errors, ...status.errors]).toEqual([]);
  });

  it('lays the pages out at phone and desktop widths without sideways scrolling', async () => {
    for (const [name, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      for (const [url, who, file, ready] of [
        ['/vip', vip, 'vip', 'mix-card'],
        ['/vip-admin', admin, 'vip-admin', 'admin-mix'],
        ['/storage-setup', admin, 'storage-setup', 'storage-status'],
      ] as const) {
        const { page, errors } = await open(url, who, viewport);
        await page.getByTestId(ready).first().waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${url} at ${name}`).toBe(true);
        if (SCREENSHOT_DIR) await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${file}-${name}.png`), fullPage: true });
        expect(errors).toEqual([]);
      }
    }
  });
});
