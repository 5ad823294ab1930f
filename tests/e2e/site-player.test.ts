/**
 * The site's one player in a real browser against a real Icecast: the music keeps playing while the
 * listener moves through the site by its links, the bar's title follows the station, Play is on the
 * first screen, and after an outage the player is back within seconds of the stream.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { tierLabel } from '../../src/contracts/tier-table';
import { createMember, type TestMember } from '../support/app';
import { canRunBrowser, DESKTOP, startBrowserHarness, type BrowserHarness } from '../support/browser';
import { freePort, hasIcecast, radioEnv, startTestRadio, type IcecastServer } from '../support/icecast';

const STREAM_AUTH_KEY = 'e2e-stream-auth-key-0123456789';
/** The DHR1 programme: the premium mount and the free mount from one encoder. */
const DHR1_FEED = { bitrateKbps: 320, alsoAt: [{ mount: 'dhr1-free', bitrateKbps: 128 }] };
const PHONE_360 = { width: 360, height: 640 };
const DESKTOP_1366 = { width: 1366, height: 900 };
/** Set SCREENSHOT_DIR to keep PNGs of the pages at both widths (for looking at them, not for asserting). */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR;

/** The site player's own element (RadioProvider's host); a page's own media element (a VIP mix) is another. */
const RADIO_AUDIO = '[data-testid="radio-audio"] audio';

/** Counts the site player's pauses and 'playing' moments from the page's first script on. */
function watchAudio(page: Page) {
  return page.addInitScript((selector) => {
    const w = window as unknown as { pauses: number; playingAt: number[] };
    w.pauses = 0;
    w.playingAt = [];
    const ours = (e: Event) => e.target instanceof HTMLAudioElement && e.target.matches(selector);
    document.addEventListener('pause', (e) => ours(e) && (w.pauses += 1), true);
    document.addEventListener('playing', (e) => ours(e) && w.playingAt.push(Date.now()), true);
  }, RADIO_AUDIO);
}

/** The site player's element: how many there are, whether it is the one first seen, and whether it plays. */
const audioState = (page: Page) =>
  page.evaluate((selector) => {
    const all = document.querySelectorAll('audio');
    const a = document.querySelector<HTMLAudioElement>(selector);
    const w = window as unknown as { pauses: number; playingAt: number[]; firstAudio?: HTMLAudioElement | null };
    w.firstAudio ??= a;
    const ours = [...all].filter((el) => el.matches(selector)).length;
    return {
      count: ours,
      same: a !== null && a === w.firstAudio,
      paused: a?.paused ?? true,
      time: a?.currentTime ?? 0,
      pauses: w.pauses,
      playingAt: w.playingAt,
    };
  }, RADIO_AUDIO);

describe.skipIf(!canRunBrowser || !hasIcecast)('the site player', () => {
  let h: BrowserHarness;
  let radio: IcecastServer;
  let dhr1Member: TestMember;

  beforeAll(async () => {
    const icecastPort = await freePort();
    h = await startBrowserHarness({ ...radioEnv(icecastPort), STREAM_AUTH_KEY, METADATA_POLL_S: '1' }, { backgroundJobs: true });
    radio = await startTestRadio(
      [],
      {},
      {},
      {
        port: icecastPort,
        corsFront: true,
        listenerAuth: { mounts: ['dhr1', 'dhr2'], url: `${h.baseUrl}/api/stream-auth/listener`, key: STREAM_AUTH_KEY },
      },
    );
    await radio.startFeed('dhr1', DHR1_FEED);
    await radio.setTitle('dhr1', 'Kerri Chandler - Rain');
    await vi.waitFor(
      async () => {
        const res = await fetch(`${h.baseUrl}/api/live-metadata`);
        if (res.status !== 200) throw new Error(`dhr1 not on air yet (${res.status})`);
      },
      { timeout: 20_000, interval: 200 },
    );
    dhr1Member = await createMember(h.app, { subscriptionTier: 'dhr1', subscriptionStatus: 'active' });
  });

  async function open(viewport: { width: number; height: number }, member?: TestMember) {
    const { page, context } = await h.newPage(viewport);
    if (member) {
      const eq = member.cookie.indexOf('=');
      await context.addCookies([{ name: member.cookie.slice(0, eq), value: member.cookie.slice(eq + 1), url: h.baseUrl }]);
    }
    return page;
  }

  const bar = (page: Page) => page.getByTestId('player-bar');

  it('keeps playing through five pages reached by the top bar and page links, with the bar naming the current title', { timeout: 90_000 }, async () => {
    const page = await open(DESKTOP);
    await watchAudio(page);
    await page.goto('/');
    await page.locator('#player').getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => bar(page).getByTestId('bar-status').textContent(), { timeout: 15_000 }).toBe('· Live Now');
    await expect.poll(() => bar(page).getByTestId('bar-title').textContent(), { timeout: 10_000 }).toBe('Rain · Kerri Chandler');
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));

    const nav = page.getByRole('navigation', { name: 'Main' });
    const steps: { go: () => Promise<void>; path: string }[] = [
      { go: () => nav.getByRole('link', { name: 'Forum' }).click(), path: '/forum' },
      { go: () => nav.getByRole('link', { name: tierLabel('vip') }).click(), path: '/vip' },
      { go: () => nav.getByRole('link', { name: 'Shop' }).click(), path: '/shop' },
      { go: () => nav.getByRole('link', { name: tierLabel('dhr2') }).click(), path: '/dhr2' },
      { go: () => page.getByRole('contentinfo').getByRole('link', { name: 'Privacy' }).click(), path: '/privacy' },
      { go: () => page.getByRole('link', { name: 'DHR Deep House Radio home' }).click(), path: '/' },
    ];
    for (const [i, step] of steps.entries()) {
      const before = (await audioState(page)).time;
      await step.go();
      await page.waitForURL((url) => url.pathname === step.path);
      // Half-way, the station's title changes: the bar follows it on whatever page is open.
      if (i === 2) {
        await radio.setTitle('dhr1', 'Moodymann - Shades of Jae');
        await expect.poll(() => bar(page).getByTestId('bar-title').textContent(), { timeout: 10_000 }).toBe('Shades of Jae · Moodymann');
      }
      // The music went on: the same element, never paused, its time still advancing.
      await expect.poll(async () => (await audioState(page)).time, { timeout: 5_000 }).toBeGreaterThan(before + 0.3);
      expect(await audioState(page)).toMatchObject({ count: 1, same: true, paused: false, pauses: 0 });
      expect(await bar(page).getByTestId('bar-status').textContent()).toBe('· Live Now');
    }
    // One document all along: client-side navigation, not page loads.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    // Back home, the page's card shows the same player playing; the bar pauses it.
    expect(await page.locator('#player').getByRole('button', { name: 'Pause' }).count()).toBe(1);
    await bar(page).getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => page.locator('#player').getByTestId('player-status').textContent()).toBe('Ready to Stream');
    await radio.setTitle('dhr1', 'Kerri Chandler - Rain');
    await page.close();
  });

  it('keeps focus on Play; Space pauses without scrolling, K plays, and typing in a field is only typing', { timeout: 60_000 }, async () => {
    const page = await open(DESKTOP);
    await page.goto('/');
    const card = page.locator('#player');
    await card.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => card.getByTestId('player-status').textContent(), { timeout: 15_000 }).toBe('Live Now');
    const focused = () => page.evaluate(() => document.activeElement?.closest('[data-player]') !== null && document.activeElement?.getAttribute('aria-label'));
    expect(await focused()).toBe('Pause');
    // Space presses the focused Play/Pause once: paused, focus kept, the page not scrolled.
    await page.keyboard.press('Space');
    await expect.poll(() => card.getByTestId('player-status').textContent()).toBe('Ready to Stream');
    expect(await focused()).toBe('Play');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    // From the page itself, K plays and Space pauses.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('k');
    await expect.poll(() => card.getByTestId('player-status').textContent(), { timeout: 15_000 }).toBe('Live Now');
    await page.keyboard.press('Space');
    await expect.poll(() => card.getByTestId('player-status').textContent()).toBe('Ready to Stream');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    // In the forum's search field (a text field), Space and K are typed, the player is left alone.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Forum' }).click();
    const search = page
      .getByRole('searchbox')
      .or(page.getByPlaceholder(/search/i))
      .first();
    await search.click();
    await page.keyboard.type('k k');
    expect(await search.inputValue()).toBe('k k');
    expect(await bar(page).getByTestId('bar-status').textContent()).toBe('· Ready to Stream');
    await page.close();
  });

  it('shows Play, the channel, the title and its art on the first screen of / and /dhr1 at 360×640 and 1366×900', { timeout: 60_000 }, async () => {
    for (const viewport of [PHONE_360, DESKTOP_1366]) {
      for (const route of ['/', '/dhr1']) {
        const page = await open(viewport, route === '/dhr1' ? dhr1Member : undefined);
        await page.goto(route);
        const card = page.locator('main [data-player]');
        await expect.poll(() => card.getByTestId('now-playing-title').textContent(), { timeout: 10_000 }).toBe('Rain');
        const barTop = (await bar(page).boundingBox())?.y ?? viewport.height;
        for (const part of [
          card.getByRole('button', { name: 'Play' }),
          card.getByTestId('player-channel'),
          card.getByTestId('now-playing-title'),
          card.getByTestId('now-playing-art'),
        ]) {
          const box = await part.boundingBox();
          expect(box, `${route} at ${viewport.width}`).not.toBeNull();
          // Within the first screen, above the player bar.
          expect(box!.y, `${route} at ${viewport.width}`).toBeGreaterThanOrEqual(0);
          expect(box!.y + box!.height, `${route} at ${viewport.width}`).toBeLessThanOrEqual(barTop);
        }
        // And the bar itself is there, at every width.
        expect(await bar(page).getByRole('button', { name: 'Play' }).isVisible()).toBe(true);
        if (route === '/') {
          // The slogan and the figures come after the player.
          const slogan = await page.getByTestId('hero-slogan').boundingBox();
          const play = await card.getByRole('button', { name: 'Play' }).boundingBox();
          expect(slogan!.y).toBeGreaterThan(play!.y);
        }
        if (SCREENSHOT_DIR) {
          const name = route === '/' ? 'home' : 'dhr1';
          await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${viewport.width}.png`) });
          if (route === '/') {
            await page
              .getByRole('navigation', { name: 'Main' })
              .or(page.getByRole('button', { name: 'Open menu' }))
              .first()
              .waitFor();
            await page.goto('/forum');
            await page.getByRole('heading', { level: 1, name: 'DHR Forum' }).waitFor();
            await page.screenshot({ path: path.join(SCREENSHOT_DIR, `forum-${viewport.width}.png`) });
          }
        }
        await page.close();
      }
    }
  });

  it('is back within 3 s of the stream returning after a 15 s outage, saying Reconnecting… meanwhile', { timeout: 90_000 }, async () => {
    const page = await open(DESKTOP);
    await watchAudio(page);
    await page.goto('/');
    await page.locator('#player').getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => bar(page).getByTestId('bar-status').textContent(), { timeout: 15_000 }).toBe('· Live Now');
    // Retries that reach Icecast while the mount is away get its 404.
    h.expectPageErrors(/status of 404/);

    await radio.stopFeed('dhr1');
    let restarting = 0;
    let back: number;
    try {
      await expect.poll(() => bar(page).getByTestId('bar-status').textContent(), { timeout: 15_000 }).toBe('· Reconnecting…');
      // No placeholder that looks like a track: the channel's name and what is going on.
      expect(await page.locator('#player').getByTestId('now-playing-title').textContent()).toBe('Free Stream');
      expect(await page.locator('#player').getByTestId('now-playing-artist').textContent()).toBe('Reconnecting…');
      expect(await bar(page).getByTestId('bar-title').textContent()).toBe('Free Stream · Reconnecting…');
      await page.waitForTimeout(15_000);
      expect(await bar(page).getByTestId('bar-status').textContent()).toBe('· Reconnecting…');
    } finally {
      restarting = Date.now();
      // Resolves once Icecast lists the mount on air again: the stream is back from then on.
      await radio.startFeed('dhr1', DHR1_FEED);
      back = Date.now();
      await radio.setTitle('dhr1', 'Kerri Chandler - Rain');
    }
    await expect.poll(async () => (await audioState(page)).playingAt.some((t) => t >= restarting), { timeout: 10_000, interval: 100 }).toBe(true);
    const playing = (await audioState(page)).playingAt.find((t) => t >= restarting)!;
    expect(playing - back).toBeLessThanOrEqual(3_000);
    // And the music really flows again.
    const t0 = (await audioState(page)).time;
    await expect.poll(async () => (await audioState(page)).time, { timeout: 5_000 }).toBeGreaterThan(t0 + 0.5);
    await expect.poll(() => bar(page).getByTestId('bar-status').textContent()).toBe('· Live Now');
    await page.close();
  });
});
