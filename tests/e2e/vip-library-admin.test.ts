import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type TestMember } from '../support/app';
import { canRunBrowser, DESKTOP, PHONE, startBrowserHarness, type BrowserHarness } from '../support/browser';

/** Set SCREENSHOT_DIR to keep PNGs of the pages (for looking at them, not for asserting). */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR;

const work = await fs.mkdtemp(path.join(os.tmpdir(), 'dhr-library-e2e-'));
afterAll(() => fs.rm(work, { recursive: true, force: true }));
const run = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

describe.skipIf(!canRunBrowser)('the VIP library admin in the browser', () => {
  let h: BrowserHarness;
  let dataDir: string;
  let vip: TestMember;
  let admin: TestMember;
  let tagged: string;
  let large: string;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(work, 'data-'));
    h = await startBrowserHarness({ DATA_DIR: dataDir });
    vip = await createMember(h.app, { subscriptionTier: 'vip', subscriptionStatus: 'active' });
    admin = await createMember(h.app, { isAdmin: true });
    tagged = path.join(work, 'tagged.mp3');
    run([
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=330:duration=20',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '128k',
      '-metadata',
      'title=Night Tagged',
      '-metadata',
      'artist=Tag Artist',
      '-metadata',
      'genre=Minimal',
      tagged,
    ]);
    // Over the resumable threshold (50 MB): about 55 MB of 48 kHz stereo WAV.
    large = path.join(work, 'large.wav');
    run(['-f', 'lavfi', '-i', 'sine=duration=290', '-ac', '2', '-ar', '48000', large]);
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
  const row = (page: Page, title: string) => page.getByTestId('admin-mix').filter({ hasText: title });
  const cardTitles = async (page: Page) => page.locator('[data-testid="mix-card"] h2').allTextContents();

  it('edits a title and hides a mix in the admin, and /vip changes', async () => {
    const { page, errors } = await open('/vip-admin', admin);
    await row(page, 'Low Tide').first().waitFor();
    // Artwork thumbnails and facts in the list.
    expect(await row(page, 'Low Tide').locator('img').count()).toBe(1);
    expect(await row(page, 'Low Tide').textContent()).toMatch(/downloads/);

    await row(page, 'Low Tide').getByRole('button', { name: 'Edit Low Tide' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Low Tide (Remaster)');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(page, 'Low Tide (Remaster)').waitFor();

    const member = await open('/vip', vip);
    await member.page.getByTestId('mix-card').first().waitFor();
    expect(await cardTitles(member.page)).toContain('Low Tide (Remaster)');

    await row(page, 'Low Tide (Remaster)').getByRole('button', { name: 'Edit Low Tide (Remaster)' }).click();
    await page.getByRole('dialog').getByRole('checkbox', { name: 'Hidden from members' }).check();
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(() => row(page, 'Low Tide (Remaster)').textContent()).toContain('Hidden');

    await member.page.reload();
    await member.page.getByTestId('mix-card').first().waitFor();
    expect(await cardTitles(member.page)).not.toContain('Low Tide (Remaster)');
    expect(await member.page.getByTestId('mix-card').count()).toBeGreaterThan(0);
    if (SCREENSHOT_DIR) {
      for (const [name, viewport] of [
        ['phone', { width: 360, height: 800 }],
        ['desktop', DESKTOP],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `vip-admin-library-${name}.png`), fullPage: true });
      }
    }
    expect([...errors, ...member.errors]).toEqual([]);
  });

  it('asks in the page before deleting a mix: Cancel keeps it, Delete removes it', async () => {
    const { page, errors } = await open('/vip-admin', admin);
    const natives: string[] = [];
    page.on('dialog', (d) => natives.push(d.type()));
    const forest = row(page, 'Forest Floor');
    await forest.waitFor();
    await forest.getByRole('button', { name: 'Delete Forest Floor' }).click();
    const asked = page.getByRole('dialog', { name: 'Delete the mix' });
    await asked.getByText("Delete 'Forest Floor' and its file?").waitFor();
    if (SCREENSHOT_DIR) {
      for (const [name, viewport] of [
        ['phone', { width: 360, height: 800 }],
        ['desktop', DESKTOP],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `vip-admin-delete-${name}.png`) });
      }
    }
    await asked.getByRole('button', { name: 'Cancel' }).click();
    await asked.waitFor({ state: 'detached' });
    await expect.poll(() => forest.count()).toBe(1);
    await forest.getByRole('button', { name: 'Delete Forest Floor' }).click();
    await asked.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => forest.count()).toBe(0);
    const mixes = (await h.app.inject({ url: '/api/admin/vip-mixes', headers: { cookie: admin.cookie } })).json<{ title: string }[]>();
    expect(mixes.map((m) => m.title)).not.toContain('Forest Floor');
    expect(natives).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("fills the upload form from the file's tags as soon as it is chosen", async () => {
    const { page, errors } = await open('/vip-admin', admin);
    const form = page.getByRole('form', { name: 'Upload a mix' });
    await form.getByRole('textbox', { name: 'Artist' }).fill('Typed Artist');
    await form.getByLabel('Audio (MP3, AAC/M4A, FLAC, WAV)').setInputFiles(tagged);
    await expect.poll(() => form.getByRole('textbox', { name: 'Title' }).inputValue()).toBe('Night Tagged');
    // What the admin typed stays.
    expect(await form.getByRole('textbox', { name: 'Artist' }).inputValue()).toBe('Typed Artist');
    expect(await form.getByRole('combobox', { name: 'Genre' }).inputValue()).toBe('minimal');
    await expect.poll(() => form.textContent()).toContain('Read from the file: 0:20 · 128 kbps · no artwork');
    if (SCREENSHOT_DIR) await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'vip-admin-preview.png') });
    expect(errors).toEqual([]);
  });

  it('shows the progress of a large upload (bytes, percent, speed, time left) and cancels it, keeping nothing', async () => {
    const before = (await h.app.inject({ url: '/api/admin/vip-mixes', headers: { cookie: admin.cookie } })).json().length;
    const { page, errors } = await open('/vip-admin', admin, PHONE);
    // The first chunk goes through at once; the next is held, so the upload is mid-way when Cancel is pressed.
    let chunks = 0;
    await page.route('**/api/admin/vip-mixes/uploads/*', async (route) => {
      if (route.request().method() === 'PATCH' && ++chunks > 1) await new Promise((r) => setTimeout(r, 30_000));
      await route.continue().catch(() => undefined);
    });
    const form = page.getByRole('form', { name: 'Upload a mix' });
    await form.getByRole('textbox', { name: 'Title' }).fill('Too Big To Wait');
    await form.getByRole('textbox', { name: 'Artist' }).fill('Slow Line');
    await form.getByLabel('Audio (MP3, AAC/M4A, FLAC, WAV)').setInputFiles(large);
    await form.getByRole('button', { name: 'Upload' }).click();
    const status = page.getByTestId('upload-status');
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/^\d+ MB of 56 MB · \d+% · [\d.]+ (MB|KB|GB)\/s · .+ left$/);
    expect(Number(await status.getByRole('progressbar').getAttribute('aria-valuenow'))).toBeGreaterThan(0);
    if (SCREENSHOT_DIR) await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'vip-admin-upload-phone.png') });
    // Once the first chunk is in, so that the server holds bytes that Cancel must drop.
    await expect.poll(() => chunks, { timeout: 30_000 }).toBe(2);
    await expect.poll(async () => (await fs.readdir(path.join(dataDir, 'mix-uploads'))).filter((f) => !f.endsWith('.json')).length).toBe(1);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => form.getByRole('status').textContent()).toBe('Upload cancelled');
    await status.waitFor({ state: 'detached' });
    // Nothing is kept: no staged bytes, no mix.
    const staged = async () => (await fs.readdir(path.join(dataDir, 'mix-uploads'))).filter((f) => !f.endsWith('.json'));
    await expect.poll(staged, { timeout: 10_000 }).toEqual([]);
    expect((await h.app.inject({ url: '/api/admin/vip-mixes', headers: { cookie: admin.cookie } })).json().length).toBe(before);
    expect(errors.filter((e) => !/Failed to load resource|net::ERR/.test(e))).toEqual([]);
  });

  /** Fails the mix chunks (PATCH) after the first while `failing()` says so; the rest pass. */
  async function flakyLine(page: Page, failing: () => boolean): Promise<{ chunks: () => number }> {
    let chunks = 0;
    await page.route('**/api/admin/vip-mixes/uploads/*', async (route) => {
      if (route.request().method() === 'PATCH' && ++chunks > 1 && failing()) return route.abort('internetdisconnected');
      await route.continue().catch(() => undefined);
    });
    return { chunks: () => chunks };
  }

  async function startUpload(page: Page, title: string) {
    const form = page.getByRole('form', { name: 'Upload a mix' });
    await form.getByRole('textbox', { name: 'Title' }).fill(title);
    await form.getByRole('textbox', { name: 'Artist' }).fill('Flaky Line');
    await form.getByLabel('Audio (MP3, AAC/M4A, FLAC, WAV)').setInputFiles(large);
    await form.getByRole('button', { name: 'Upload' }).click();
    return form;
  }

  it('says "Connection lost — retrying…" while the line is down and carries on by itself when it is back', async () => {
    const { page, errors } = await open('/vip-admin', admin);
    let down = true;
    await flakyLine(page, () => down);
    const form = await startUpload(page, 'Through The Outage');
    const status = page.getByTestId('upload-status');
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe('Connection lost — retrying…');
    down = false;
    await expect.poll(() => form.getByRole('status').textContent(), { timeout: 60_000 }).toMatch(/^Uploaded: Through The Outage/);
    expect(errors.filter((e) => !/Failed to load resource|net::ERR/.test(e))).toEqual([]);
  });

  it('after giving up, names the point to resume from, and the same file chosen again carries on from there', async () => {
    const { page, errors } = await open('/vip-admin', admin);
    let down = true;
    const line = await flakyLine(page, () => down);
    const form = await startUpload(page, 'Resumed Later');
    // tus tries each chunk again on a schedule of about 40 s before it gives up.
    await expect.poll(() => form.getByRole('status').textContent(), { timeout: 80_000 }).toMatch(/Choose the same file to resume from \d+ %\.$/);
    const failedAt = line.chunks();
    down = false;
    await form.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => form.getByRole('status').textContent(), { timeout: 60_000 }).toMatch(/^Uploaded: Resumed Later/);
    // Resumed, not sent again: the first chunk is not repeated (55 MB in 16 MB chunks is 4 PATCHes in all).
    expect(line.chunks() - failedAt).toBeLessThanOrEqual(3);
    expect(errors.filter((e) => !/Failed to load resource|net::ERR/.test(e))).toEqual([]);
  }, 150_000);

  it('says when a download failed, by the server or the network', async () => {
    const { page, errors } = await open('/vip', vip);
    const card = page.locator('[data-testid="mix-card"]', { hasText: 'Harbour Lights' });
    await page.route('**/api/download/**', (route) => route.fulfill({ status: 500, contentType: 'text/plain', body: 'oops' }));
    await card.getByRole('button', { name: 'Download Harbour Lights' }).click();
    await expect.poll(() => page.getByTestId('toast').allTextContents()).toContain('Download failed');
    await page.unroute('**/api/download/**');
    await page.route('**/api/download/**', (route) => route.abort('internetdisconnected'));
    await card.getByRole('button', { name: 'Download Harbour Lights' }).click();
    await expect.poll(() => page.getByTestId('toast').allTextContents()).toContain('Download failed due to network error');
    expect(errors.filter((e) => !/Failed to load resource|net::ERR/.test(e))).toEqual([]);
  });

  it('gives the /vip search field the height of the genre select at phone width', async () => {
    const { page } = await open('/vip', null, PHONE);
    await page.getByTestId('mix-card').first().waitFor();
    const search = await page.getByRole('searchbox', { name: 'Search mixes' }).locator('xpath=..').boundingBox();
    const select = await page.getByRole('combobox', { name: 'Genre' }).boundingBox();
    expect(search?.height).toBe(48);
    expect(select?.height).toBe(48);
  });
});
