import type { Page } from 'playwright-core';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { trackIdentifications } from '../../src/server/db/schema';
import { createMember, type TestMember } from '../support/app';
import { canRunBrowser, DESKTOP, PHONE, startBrowserHarness, type BrowserHarness } from '../support/browser';
import { freePort, hasIcecast, radioEnv, startTestRadio, type IcecastServer } from '../support/icecast';

const STREAM_AUTH_KEY = 'e2e-nowplaying-auth-key-0123456789';
const DHR1_FEED = { bitrateKbps: 320, alsoAt: [{ mount: 'dhr1-free', bitrateKbps: 128 }] };
/** Set SCREENSHOT_DIR to keep PNGs of the playing pages at both widths. */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR;

/** Every surface that says what is on air, per page: all of them must agree. */
const PLACES = {
  player: { artist: '[data-testid="now-playing-artist"]', title: '[data-testid="now-playing-title"]' },
} as const;

describe.skipIf(!canRunBrowser || !hasIcecast)('one now-playing per channel, in step with the audio', () => {
  let h: BrowserHarness;
  let radio: IcecastServer;
  let member: TestMember;

  /** dhr1's programme: the premium and the free mount carry the same titles. */
  async function setDhr1(song: string) {
    await Promise.all([radio.setTitle('dhr1', song), radio.setTitle('dhr1-free', song)]);
  }

  beforeAll(async () => {
    const icecastPort = await freePort();
    h = await startBrowserHarness({ ...radioEnv(icecastPort), STREAM_AUTH_KEY, METADATA_POLL_S: '1' }, { backgroundJobs: true });
    radio = await startTestRadio(
      ['dhr2'],
      { dhr2: 'Larry Heard - Can You Feel It' },
      { bitrateKbps: 320 },
      {
        port: icecastPort,
        corsFront: true,
        listenerAuth: { mounts: ['dhr1', 'dhr2'], url: `${h.baseUrl}/api/stream-auth/listener`, key: STREAM_AUTH_KEY },
      },
    );
    await radio.startFeed('dhr1', DHR1_FEED);
    await setDhr1('Kerri Chandler - Rain');
    await vi.waitFor(
      async () => {
        const res = await fetch(`${h.baseUrl}/api/live-metadata`);
        if (res.status !== 200) throw new Error(`dhr1 not on air yet (${res.status})`);
      },
      { timeout: 20_000, interval: 200 },
    );
    member = await createMember(h.app, { subscriptionTier: 'dhr2', subscriptionStatus: 'active' });
    // An identification of an earlier track: the card must not present it as what plays now.
    const earlier = new Date(Date.now() - 10 * 60_000);
    await h.app.database.db.insert(trackIdentifications).values({
      channel: 'dhr1',
      title: 'Au Seve',
      artist: 'Julien Jabre',
      album: null,
      confidence: 97,
      service: 'audd',
      durationS: 400,
      identifiedAt: earlier,
      lastSeenAt: earlier,
    });
  });

  async function open(url: string, viewport = DESKTOP) {
    const { page, context } = await h.newPage(viewport);
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      // Blocked on purpose in the ICY test.
      if (msg.text().includes('net::ERR_FAILED')) return;
      errors.push(`${msg.text()} (${msg.location().url})`);
    });
    page.on('pageerror', (err) => errors.push(err.message));
    const eq = member.cookie.indexOf('=');
    await context.addCookies([{ name: member.cookie.slice(0, eq), value: member.cookie.slice(eq + 1), url: h.baseUrl }]);
    await page.goto(url);
    return { page, errors };
  }

  /** What each place on the page says is on air for `channel`, as "Artist - Title". */
  async function placesOf(page: Page, channel: string): Promise<string[]> {
    return page.evaluate(
      ({ channel, player }) => {
        const text = (el: Element | null) => el?.textContent?.trim() ?? '(missing)';
        const found: string[] = [];
        for (const box of document.querySelectorAll(`[data-player]`)) {
          const id = box.getAttribute('data-player');
          const shows = id === channel || (channel === 'dhr1' && id === 'free');
          if (!shows) continue;
          found.push(`${text(box.querySelector(player.artist))} - ${text(box.querySelector(player.title))}`);
        }
        const home = document.querySelector('[data-testid="home-now-playing"]');
        if (home && channel === 'dhr1') found.push(text(home));
        const line = document.querySelector(`[data-testid="on-air-${channel}"]`);
        if (line) found.push(text(line));
        const card = document.querySelector(`[data-testid="live-track-${channel}"]`);
        if (card) {
          const identified = card.querySelector('[data-testid="live-track-title"]');
          const onAir = card.querySelector('[data-testid="live-track-on-air"]');
          found.push(identified ? `identified ${text(identified)}` : text(onAir).replace(/^On air: /, ''));
        }
        return found;
      },
      { channel, player: PLACES.player },
    );
  }

  it('shows one title per channel in every place, and all follow an Icecast title change within one update', { timeout: 120_000 }, async () => {
    const pages = [
      { ...(await open('/')), channels: ['dhr1'], places: 2 },
      { ...(await open('/dhr1')), channels: ['dhr1'], places: 2 },
      { ...(await open('/dhr2')), channels: ['dhr2'], places: 2 },
      { ...(await open('/birdy')), channels: ['dhr1', 'dhr2'], places: 2 },
      // Pop-outs play by themselves: their titles come from the stream.
      { ...(await open('/player', { width: 400, height: 600 })), channels: ['dhr1'], places: 1 },
      { ...(await open('/player/dhr1', { width: 420, height: 500 })), channels: ['dhr1'], places: 1 },
      { ...(await open('/player/dhr2', { width: 420, height: 500 })), channels: ['dhr2'], places: 1 },
    ];
    const expectEverywhere = async (channel: string, line: string) => {
      for (const p of pages.filter((x) => x.channels.includes(channel))) {
        await expect
          .poll(
            async () => {
              const seen = await placesOf(p.page, channel);
              return seen.length >= p.places ? [...new Set(seen)] : seen;
            },
            { timeout: 15_000, interval: 200 },
          )
          .toEqual([line]);
      }
    };
    await expectEverywhere('dhr1', 'Kerri Chandler - Rain');
    await expectEverywhere('dhr2', 'Larry Heard - Can You Feel It');

    await setDhr1('Moodymann - Shades of Jae');
    await radio.setTitle('dhr2', 'Ron Trent - Altered States');
    await expectEverywhere('dhr1', 'Moodymann - Shades of Jae');
    await expectEverywhere('dhr2', 'Ron Trent - Altered States');
    // The card guesses about the new track, not the old one.
    const dhr1 = pages[1]!.page;
    await expect.poll(() => dhr1.getByTestId('derived-genre').textContent()).toBe('House');
    expect(Number((await dhr1.getByTestId('derived-bpm').textContent())?.replace('~', ''))).toBeGreaterThanOrEqual(120);

    for (const p of pages) {
      expect(p.errors).toEqual([]);
      await p.page.close();
    }
    await setDhr1('Kerri Chandler - Rain');
    await radio.setTitle('dhr2', 'Larry Heard - Can You Feel It');
  });

  it(
    'while playing, the title follows the stream itself (ICY) with pushes and polls blocked, and the ICY code loads only on Play',
    { timeout: 120_000 },
    async () => {
      const { page, context } = await h.newPage(DESKTOP);
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && !m.text().includes('net::ERR_FAILED') && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      const eq = member.cookie.indexOf('=');
      await context.addCookies([{ name: member.cookie.slice(0, eq), value: member.cookie.slice(eq + 1), url: h.baseUrl }]);
      // No pushed or polled titles at all: only the stream can tell the page.
      await page.route(/\/api\/live\/events|\/api\/live-metadata/, (route) => route.abort());
      const scripts: string[] = [];
      page.on('response', (r) => {
        if (r.request().resourceType() === 'script') scripts.push(r.url());
      });
      const icyCodeLoaded = async () => {
        for (const url of scripts) {
          const body = await (await fetch(url)).text();
          if (body.includes('Icy-MetaData')) return true;
        }
        return false;
      };

      await page.goto('/dhr1');
      const player = page.locator('[data-player="dhr1"]');
      await player.getByRole('button', { name: 'Play' }).waitFor();
      // Nothing to read yet: the channel's name (never a made-up track), and no ICY code in the page.
      await expect.poll(() => player.getByTestId('now-playing-title').textContent()).toBe('DHR1 Premium');
      expect(await icyCodeLoaded()).toBe(false);

      await player.getByRole('button', { name: 'Play' }).click();
      await expect.poll(() => player.getByTestId('player-status').textContent(), { timeout: 15_000 }).toBe('Live Now');
      expect(await icyCodeLoaded()).toBe(true);
      await expect.poll(() => player.getByTestId('now-playing-title').textContent(), { timeout: 10_000 }).toBe('Rain');
      await expect.poll(() => page.getByTestId('live-track-on-air').textContent()).toBe('On air: Kerri Chandler - Rain');
      // The earlier identification is not shown as the track on air.
      expect(await page.getByTestId('live-track-dhr1').getByTestId('live-track-title').count()).toBe(0);

      await radio.setTitle('dhr1', 'Theo Parrish - Summertime Is Here');
      const changed = Date.now();
      await expect.poll(() => player.getByTestId('now-playing-title').textContent(), { timeout: 3_000, interval: 100 }).toBe('Summertime Is Here');
      const after = Date.now() - changed;
      expect(await player.getByTestId('now-playing-artist').textContent()).toBe('Theo Parrish');
      expect(await page.getByTestId('live-track-on-air').textContent()).toBe('On air: Theo Parrish - Summertime Is Here');
      // Not before the audio gets there: the 320 kbps burst Icecast sends first is ~1.6 s of music.
      expect(after).toBeGreaterThan(500);
      const session = await page.evaluate(() => navigator.mediaSession.metadata?.title);
      expect(session).toBe('Summertime Is Here');

      if (SCREENSHOT_DIR) {
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'nowplaying-dhr1-1366.png'), fullPage: true });
        await page.setViewportSize(PHONE.width === 390 ? { width: 360, height: 800 } : PHONE);
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'nowplaying-dhr1-360.png'), fullPage: true });
      }
      await player.getByRole('button', { name: 'Pause' }).click();
      // Stopped: the server's title is the source again (here: none, it is blocked, so the channel's name).
      await expect.poll(() => player.getByTestId('now-playing-title').textContent()).toBe('DHR1 Premium');
      expect(errors).toEqual([]);
      await page.close();
      await radio.setTitle('dhr1', 'Kerri Chandler - Rain');
    },
  );

  it('the home page while playing at 360 and 1366 px', { timeout: 60_000 }, async () => {
    for (const width of [1366, 360]) {
      const { page, errors } = await open('/', { width, height: 900 });
      const player = page.locator('#player');
      await player.getByRole('button', { name: 'Play' }).click();
      await expect.poll(() => player.getByTestId('player-status').textContent(), { timeout: 15_000 }).toBe('Live Now');
      await expect.poll(() => player.getByTestId('now-playing-title').textContent(), { timeout: 10_000 }).toBe('Rain');
      expect(await page.getByTestId('home-now-playing').textContent()).toBe('Kerri Chandler - Rain');
      if (SCREENSHOT_DIR) await page.screenshot({ path: path.join(SCREENSHOT_DIR, `nowplaying-home-${width}.png`), fullPage: false });
      expect(errors).toEqual([]);
      await page.close();
    }
  });
});
