import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { trackIdentifications } from '../../src/server/db/schema';
import { createMember, type TestMember } from '../support/app';
import { canRunBrowser, DESKTOP, PHONE, startBrowserHarness, type BrowserHarness } from '../support/browser';
import { freePort, hasIcecast, radioEnv, startTestRadio, type IcecastServer } from '../support/icecast';

const STREAM_AUTH_KEY = 'e2e-stream-auth-key-0123456789';
/** The DHR1 programme: the premium mount at 320 kbps and the free mount at 128 kbps from one encoder. */
const DHR1_FEED = { bitrateKbps: 320, alsoAt: [{ mount: 'dhr1-free', bitrateKbps: 128 }] };

/** Set SCREENSHOT_DIR to keep PNGs of the pages at both widths (for looking at them, not for asserting). */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR;

describe.skipIf(!canRunBrowser || !hasIcecast)('live radio in the browser', () => {
  let h: BrowserHarness;
  let radio: IcecastServer;
  let dhr1Member: TestMember;

  beforeAll(async () => {
    // Icecast asks DHR about every premium listener, so DHR listens first and Icecast learns its address.
    const icecastPort = await freePort();
    // The Icecast poller is a background job: on, and reading every second.
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
    await radio.setTitle('dhr1', 'Kerri Chandler - Rain');
    // The pages below expect a live channel (no 503 from the metadata poll): wait until DHR has seen it on air.
    await vi.waitFor(
      async () => {
        const res = await fetch(`${h.baseUrl}/api/live-metadata`);
        if (res.status !== 200) throw new Error(`dhr1 not on air yet (${res.status})`);
      },
      { timeout: 20_000, interval: 200 },
    );
    dhr1Member = await createMember(h.app, { subscriptionTier: 'dhr1', subscriptionStatus: 'active' });
    // A few identified plays, so the track widgets have something real to show.
    const minute = 60_000;
    const now = Date.now();
    await h.app.database.db.insert(trackIdentifications).values([
      {
        channel: 'dhr1',
        title: 'Space Station',
        artist: 'Kerri Chandler',
        album: 'Computer Games',
        confidence: 96,
        service: 'audd',
        durationS: 412,
        genre: 'Deep House',
        bpm: 122,
        youtubeUrl: 'https://www.youtube.com/watch?v=spacest01',
        spotifyUrl: 'https://open.spotify.com/search/Kerri%20Chandler%20Space%20Station',
        identifiedAt: new Date(now - 6 * minute),
        lastSeenAt: new Date(now - 6 * minute),
      },
      {
        channel: 'dhr1',
        title: 'Can You Feel It (Original Instrumental Mix)',
        artist: 'Mr. Fingers',
        album: null,
        confidence: 64,
        service: 'audd',
        durationS: 395,
        soundcloudUrl: 'https://soundcloud.com/search?q=Mr.%20Fingers%20Can%20You%20Feel%20It',
        identifiedAt: new Date(now - 14 * minute),
        lastSeenAt: new Date(now - 14 * minute),
      },
    ]);
  });

  async function open(path: string, opts: { member?: TestMember; viewport?: { width: number; height: number } } = {}) {
    const { page, context } = await h.newPage(opts.viewport ?? DESKTOP);
    // The harness collects every console error; anonymous visitors' 401 from the sign-in check is
    // the expected answer, so this list leaves out exactly that and nothing else.
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      const url = msg.location().url;
      if (!opts.member && msg.text().includes('status of 401') && /\/api\/(auth\/me|user\/permissions)$/.test(new URL(url, h.baseUrl).pathname)) return;
      errors.push(`${msg.text()} (${url})`);
    });
    page.on('pageerror', (err) => errors.push(err.message));
    if (opts.member) {
      const eq = opts.member.cookie.indexOf('=');
      await context.addCookies([{ name: opts.member.cookie.slice(0, eq), value: opts.member.cookie.slice(eq + 1), url: h.baseUrl }]);
    }
    return { page, context, errors, go: () => page.goto(path) };
  }

  const status = (page: Page) => page.locator('#player [data-testid="player-status"], main [data-testid="player-status"]').first();
  const audioState = (page: Page) =>
    page.evaluate(() => {
      const a = document.querySelector('audio');
      // The stream's URL: the element itself plays a MediaSource when it reads the in-band titles.
      return a ? { src: a.dataset.stream ?? a.currentSrc, paused: a.paused, time: a.currentTime } : null;
    });

  it("plays the stream from the local Icecast and says 'Live Now'", async () => {
    const { page, errors, go } = await open('/');
    await go();
    const player = page.locator('#player');
    await expect.poll(() => status(page).textContent()).toBe('Ready to Stream');
    await player.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => status(page).textContent(), { timeout: 15_000 }).toBe('Live Now');
    const audio = await audioState(page);
    // Signed out, the home player plays the free 128 kbps mount.
    expect(audio?.src).toBe(radio.streamUrl('dhr1-free'));
    // Audio really advances: the element is decoding the Icecast stream.
    await expect.poll(async () => (await audioState(page))?.time ?? 0, { timeout: 10_000 }).toBeGreaterThan(0.5);
    // Lock-screen controls carry the title (Media Session).
    const session = await page.evaluate(() => {
      const m = navigator.mediaSession.metadata;
      return m ? { title: m.title, artist: m.artist, album: m.album } : null;
    });
    expect(session).toEqual({
      title: await player.getByTestId('now-playing-title').textContent(),
      artist: await player.getByTestId('now-playing-artist').textContent(),
      album: 'Deep House Radio',
    });
    await player.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => status(page).textContent()).toBe('Ready to Stream');
    expect(errors).toEqual([]);
  });

  it("recovers by itself when the stream drops: 'Reconnecting…' then 'Live Now' again", async () => {
    const { page, errors, go } = await open('/');
    await go();
    const player = page.locator('#player');
    await player.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => status(page).textContent(), { timeout: 15_000 }).toBe('Live Now');
    await radio.stopFeed('dhr1');
    try {
      await expect.poll(() => status(page).textContent(), { timeout: 20_000 }).toBe('Reconnecting…');
    } finally {
      await radio.startFeed('dhr1', DHR1_FEED);
      // The next tests start from the first title.
      await radio.setTitle('dhr1', 'Kerri Chandler - Rain');
    }
    // Retries every 1–2 s reconnect to the live edge without a click.
    await expect.poll(() => status(page).textContent(), { timeout: 30_000 }).toBe('Live Now');
    const before = (await audioState(page))?.time ?? 0;
    await expect.poll(async () => (await audioState(page))?.time ?? 0, { timeout: 10_000 }).toBeGreaterThan(before);
    // A retry that reached Icecast while the mount was off air: the player's own fetch (in-band titles) got 404.
    expect(errors.filter((e) => !(e.includes('status of 404') && e.includes(radio.streamUrl('dhr1-free'))))).toEqual([]);
  });

  it('signed out, the premium pop-outs play nothing and show the gate instead', async () => {
    for (const channel of ['dhr1', 'dhr2']) {
      const { page, errors, go } = await open(`/player/${channel}`);
      const tickets: string[] = [];
      page.on('request', (r) => r.url().includes('/stream') && tickets.push(r.url()));
      await go();
      // The tier's wall: what it gives and how to join, not a bare sign-in screen (tests/e2e/walls.test.ts).
      await page.getByRole('heading', { name: `${channel.toUpperCase()} Subscription Required` }).waitFor();
      expect(await page.locator('audio').count()).toBe(0);
      expect(tickets).toEqual([]);
      expect(errors).toEqual([]);
      // Each open page holds an event stream from 127.0.0.1; the per-address SSE cap counts them.
      await page.close();
    }
  });

  it('a DHR2 member plays the DHR2 premium mount with a fresh token for every connection', async () => {
    const dhr2Member = await createMember(h.app, { subscriptionTier: 'dhr2', subscriptionStatus: 'active' });
    const { page, errors, go } = await open('/dhr2', { member: dhr2Member });
    let tickets = 0;
    page.on('request', (r) => new URL(r.url()).pathname === '/api/channels/dhr2/stream' && (tickets += 1));
    await go();
    await page.getByRole('heading', { name: 'DHR2 Exclusive', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Play' }).first().click();
    await expect.poll(() => status(page).textContent(), { timeout: 15_000 }).toBe('Live Now');
    const src = (await audioState(page))?.src ?? '';
    expect(src.startsWith(`${radio.streamUrl('dhr2')}?token=`)).toBe(true);
    await expect.poll(async () => (await audioState(page))?.time ?? 0, { timeout: 10_000 }).toBeGreaterThan(0.5);
    expect(tickets).toBe(1);
    // A drop: the self-recovery asks for a new token before it reconnects.
    await radio.stopFeed('dhr2');
    try {
      await expect.poll(() => status(page).textContent(), { timeout: 20_000 }).toBe('Reconnecting…');
    } finally {
      await radio.startFeed('dhr2', { bitrateKbps: 320 });
      await radio.setTitle('dhr2', 'Larry Heard - Can You Feel It');
    }
    await expect.poll(() => status(page).textContent(), { timeout: 30_000 }).toBe('Live Now');
    expect(tickets).toBeGreaterThanOrEqual(2);
    // While the mount was off air its metadata answered 503, the API's documented answer.
    expect(
      errors.filter(
        (e) => !(e.includes('status of 503') && e.includes('/api/live-metadata/dhr2')) && !(e.includes('status of 404') && e.includes(radio.streamUrl('dhr2'))),
      ),
    ).toEqual([]);
    await page.close();
  });

  it("shows each mount's listeners on the admin dashboard's System Status", async () => {
    const admin = await createMember(h.app, { isAdmin: true });
    const held = new AbortController();
    try {
      // One listener held on the free mount, reading the audio until the end of the test.
      const listener = await fetch(radio.streamUrl('dhr1-free'), { signal: held.signal });
      void listener.body?.pipeTo(new WritableStream()).catch(() => undefined);
      const { page, errors, go } = await open('/admin', { member: admin });
      await go();
      const panel = page.getByRole('region', { name: 'System Status' });
      // At least the one held here (players of earlier tests may still be connected).
      await expect
        .poll(async () => Number(/free: (\d+) listeners?$/.exec((await panel.getByTestId('mount-listeners-/dhr1-free').textContent()) ?? '')?.[1] ?? 0), {
          timeout: 20_000,
        })
        .toBeGreaterThanOrEqual(1);
      expect(await panel.getByTestId('mount-listeners-/dhr2').textContent()).toMatch(/^\/dhr2 · 320kbps DHR2\+: \d+ listeners?$/);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      held.abort();
    }
  });

  it('shows an Icecast title change without a reload', async () => {
    const { page, errors, go } = await open('/');
    await go();
    await expect.poll(() => page.getByTestId('now-playing-title').textContent(), { timeout: 10_000 }).toBe('Rain');
    expect(await page.getByTestId('home-now-playing').textContent()).toBe('Kerri Chandler - Rain');
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));

    await radio.setTitle('dhr1', 'Moodymann - Shades of Jae');
    await expect.poll(() => page.getByTestId('now-playing-title').textContent(), { timeout: 10_000 }).toBe('Shades of Jae');
    expect(await page.getByTestId('now-playing-artist').textContent()).toBe('Moodymann');
    expect(await page.getByTestId('home-now-playing').textContent()).toBe('Moodymann - Shades of Jae');
    // Same document: the update was pushed, not loaded.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    await radio.setTitle('dhr1', 'Kerri Chandler - Rain');
    expect(errors).toEqual([]);
  });

  it('pauses the opener when the pop-out starts playing', async () => {
    const { page, context, errors, go } = await open('/');
    await go();
    const player = page.locator('#player');
    await player.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => status(page).textContent(), { timeout: 15_000 }).toBe('Live Now');

    const [popup] = await Promise.all([context.waitForEvent('page'), player.getByRole('button', { name: 'Pop Out' }).click()]);
    await popup.waitForLoadState();
    expect(new URL(popup.url()).pathname).toBe('/player');
    const popupErrors: string[] = [];
    popup.on('console', (m) => m.type() === 'error' && popupErrors.push(m.text()));
    // The pop-out plays by itself and tells the opener to pause.
    await expect.poll(() => popup.getByTestId('player-status').textContent(), { timeout: 15_000 }).toBe('Live Now');
    await expect.poll(() => status(page).textContent(), { timeout: 10_000 }).toBe('Ready to Stream');
    expect((await audioState(page))?.paused).toBe(true);
    // No Pop Out inside the pop-out; it has minimize and close instead.
    expect(await popup.getByRole('button', { name: 'Pop Out' }).count()).toBe(0);
    await popup.getByRole('button', { name: 'Minimize player' }).click();
    expect(await popup.getByRole('slider').count()).toBe(0);
    await popup.getByRole('button', { name: 'Restore player' }).click();
    await popup.getByRole('slider').waitFor();
    // The click closes the window itself, so the click may report the page gone: that is the success.
    const closing = popup.waitForEvent('close');
    await popup
      .getByRole('button', { name: 'Close player' })
      .click()
      .catch((error: unknown) => {
        if (!popup.isClosed()) throw error;
      });
    await closing;
    expect([...errors, ...popupErrors]).toEqual([]);
  });

  it('pauses playback when the sleep timer fires on the home page (the one 15/30/60/90 menu, no prompt)', async () => {
    const { page, errors, go } = await open('/');
    await page.clock.install();
    await go();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const player = page.locator('#player');
    await player.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => status(page).textContent(), { timeout: 15_000 }).toBe('Live Now');

    await player.getByRole('button', { name: 'Sleep Timer' }).click();
    await player.getByRole('menuitem', { name: '15 minutes' }).click();
    await page.getByTestId('sleep-remaining').waitFor();
    await page.clock.fastForward('14:00');
    expect(await status(page).textContent()).toBe('Live Now');
    await page.clock.fastForward('01:05');
    await expect.poll(() => status(page).textContent()).toBe('Ready to Stream');
    expect((await audioState(page))?.paused).toBe(true);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('pauses playback when the sleep timer fires on /dhr1 (15 minutes), and Clear Timer cancels', async () => {
    const { page, errors, go } = await open('/dhr1', { member: dhr1Member });
    await page.clock.install();
    await go();
    const main = page.locator('main');
    await main
      .getByRole('heading', { name: 'DHR1 Premium', level: 1 })
      .waitFor()
      .catch(async (err: unknown) => {
        await page.screenshot({ path: '/tmp/radio-shots/debug-dhr1.png', fullPage: true });
        throw err;
      });
    await main.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => status(page).textContent(), { timeout: 15_000 }).toBe('Live Now');

    // Set 15, replace by 30, clear: nothing fires.
    await main.getByRole('button', { name: 'Sleep Timer' }).click();
    await page.getByRole('menuitem', { name: '15 minutes' }).click();
    await main.getByRole('button', { name: 'Sleep Timer' }).click();
    await page.getByRole('menuitem', { name: '30 minutes' }).click();
    expect(await page.getByTestId('sleep-remaining').textContent()).toMatch(/Sleeping in (30:00|29:5\d)/);
    await main.getByRole('button', { name: 'Sleep Timer' }).click();
    await page.getByRole('menuitem', { name: 'Clear Timer' }).click();
    expect(await page.getByTestId('sleep-remaining').count()).toBe(0);
    await page.clock.fastForward('31:00');
    expect(await status(page).textContent()).toBe('Live Now');

    await main.getByRole('button', { name: 'Sleep Timer' }).click();
    await page.getByRole('menuitem', { name: '15 minutes' }).click();
    await page.clock.fastForward('14:00');
    expect(await status(page).textContent()).toBe('Live Now');
    await page.clock.fastForward('01:05');
    await expect.poll(() => status(page).textContent()).toBe('Ready to Stream');
    expect((await audioState(page))?.paused).toBe(true);
    expect(errors).toEqual([]);
  });

  it('shows identified tracks on /dhr1 and both channels on /birdy', async () => {
    const { page, errors, go } = await open('/dhr1', { member: dhr1Member });
    await go();
    const recent = page.getByTestId('recent-tracks-dhr1');
    await recent.getByText('Space Station').waitFor();
    await recent.getByText('Mr. Fingers').waitFor();
    // A direct link is a Listen button; searches (stored or filled in by the server) say they are searches.
    const row = recent.locator('li', { hasText: 'Space Station' });
    expect(await row.getByRole('link').allTextContents()).toEqual(['YouTube', 'Search SoundCloud', 'Search Spotify']);
    expect(await row.getByRole('link', { name: 'YouTube', exact: true }).getAttribute('href')).toBe('https://www.youtube.com/watch?v=spacest01');
    expect(await row.getByRole('link', { name: 'Search Spotify' }).getAttribute('href')).toBe(
      'https://open.spotify.com/search/Kerri%20Chandler%20Space%20Station',
    );
    expect(await recent.locator('li', { hasText: 'Space Station' }).getByText('96%').count()).toBe(1);
    // Collapsed: 'Latest:' and the newest title, cut to 20 characters.
    const newest =
      (await h.app.inject({ url: '/api/tracks/recent/dhr1?limit=1', headers: { cookie: dhr1Member.cookie } })).json<{ title: string }[]>()[0]?.title ?? '';
    const preview = newest.length > 20 ? `${newest.slice(0, 20)}...` : newest;
    await recent.getByRole('button', { name: /Recent Tracks/ }).click();
    await recent.getByText('Latest:').waitFor();
    expect(await recent.getByRole('button', { name: /Recent Tracks/ }).textContent()).toContain(`Latest: ${preview}`);
    expect(await recent.getByRole('list').count()).toBe(0);
    await recent.getByRole('button', { name: /Recent Tracks/ }).click();
    // A DHR1 member is told the full history is a VIP feature before following the link.
    await recent.getByRole('link', { name: /Full track history — VIP/ }).waitFor();
    expect(await recent.getByRole('link', { name: /Full track history — VIP/ }).getAttribute('target')).toBe('_blank');
    // Similar tracks come from the station's own history: at most 3, each with YouTube and SoundCloud.
    await recent.getByRole('button', { name: 'Find Similar Tracks' }).click();
    const suggestions = recent.getByTestId('recommendations').getByRole('listitem');
    await suggestions.first().waitFor();
    const count = await suggestions.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(3);
    const suggestionLinks = await suggestions.first().getByRole('link').allTextContents();
    expect(suggestionLinks).toHaveLength(2);
    expect(suggestionLinks[0]).toMatch(/^(Search )?YouTube$/);
    expect(suggestionLinks[1]).toMatch(/^(Search )?SoundCloud$/);
    await shoot(page, 'dhr1');

    const birdy = await open('/birdy', { member: dhr1Member });
    await birdy.go();
    await birdy.page.getByTestId('live-track-dhr1').waitFor();
    await birdy.page.getByTestId('live-track-dhr2').waitFor();
    await expect.poll(() => birdy.page.getByTestId('on-air-dhr2').textContent(), { timeout: 10_000 }).toBe('Larry Heard - Can You Feel It');
    await birdy.page.getByTestId('recent-tracks-dhr1').getByText('Space Station').waitFor();
    await shoot(birdy.page, 'birdy');
    expect([...errors, ...birdy.errors]).toEqual([]);
  });

  it('falls back to polling every 90 s when Server-Sent Events are unavailable', async () => {
    const { page, errors, go } = await open('/');
    await page.addInitScript(() => {
      delete (window as unknown as { EventSource?: unknown }).EventSource;
    });
    await page.clock.install();
    await go();
    const onAir = (await h.app.inject({ url: '/api/live-metadata' })).json<{ title: string }>().title;
    await expect.poll(() => page.getByTestId('now-playing-title').textContent(), { timeout: 10_000 }).toBe(onAir);
    await radio.setTitle('dhr1', 'Marvin Belton - Jessica');
    // Wait until the server has read the new title, then let the page's poll come round.
    await expect.poll(async () => (await h.app.inject({ url: '/api/live-metadata' })).json<{ title: string }>().title, { timeout: 10_000 }).toBe('Jessica');
    await page.clock.fastForward('00:30');
    expect(await page.getByTestId('now-playing-title').textContent()).toBe(onAir);
    await page.clock.fastForward('01:05');
    await expect.poll(() => page.getByTestId('now-playing-title').textContent(), { timeout: 10_000 }).toBe('Jessica');
    await radio.setTitle('dhr1', 'Kerri Chandler - Rain');
    expect(errors).toEqual([]);
  });

  it('shows the channel and "Off air right now", never a made-up track, while DHR2 is off air', async () => {
    const dhr2Member = await createMember(h.app, { subscriptionTier: 'dhr2', subscriptionStatus: 'active' });
    await radio.stopFeed('dhr2');
    try {
      await expect.poll(async () => (await h.app.inject({ url: '/api/live-metadata/dhr2' })).statusCode, { timeout: 10_000 }).toBe(503);
      const { page, errors, go } = await open('/dhr2', { member: dhr2Member });
      await go();
      await page.getByRole('heading', { name: 'DHR2 Exclusive', level: 1 }).waitFor();
      await expect.poll(() => page.getByTestId('now-playing-title').textContent()).toBe('DHR2 Exclusive');
      expect(await page.getByTestId('now-playing-artist').textContent()).toBe('Off air right now');
      // The 503 is the API's documented answer for an off-air channel.
      expect(
        errors.filter(
          (e) =>
            !(e.includes('status of 503') && e.includes('/api/live-metadata/dhr2')) && !(e.includes('status of 404') && e.includes(radio.streamUrl('dhr2'))),
        ),
      ).toEqual([]);
    } finally {
      await radio.startFeed('dhr2');
      await radio.setTitle('dhr2', 'Larry Heard - Can You Feel It');
    }
  });

  it('offers casting instructions when no cast device is available', async () => {
    const { page, errors, go } = await open('/');
    await go();
    // Answer the alert at once: an open dialog would hold up the page.
    const alerts: { type: string; message: string }[] = [];
    page.on('dialog', (d) => {
      alerts.push({ type: d.type(), message: d.message() });
      void d.accept();
    });
    await page.locator('#player').getByRole('button', { name: 'Cast' }).click();
    await expect.poll(() => alerts.length, { timeout: 15_000 }).toBe(1);
    expect(alerts[0]?.type).toBe('alert');
    expect(alerts[0]?.message).toMatch(/Cast|AirPlay/);
    expect(errors).toEqual([]);
  });

  it("shows 'Invalid Player' for a channel without a pop-out player", async () => {
    const { page, errors, go } = await open('/player/dhr9');
    await go();
    await page.getByRole('heading', { name: 'Invalid Player' }).waitFor();
    expect(await page.getByText('Pop Out button').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('renders the radio pages at phone and desktop widths without sideways scrolling or console errors', { timeout: 300_000 }, async () => {
    const shotDir = SCREENSHOT_DIR ?? mkdtempSync(path.join(tmpdir(), 'dhr-radio-shots-'));
    for (const [name, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      const home = await open('/', { viewport });
      await home.go();
      await home.page.locator('#player').scrollIntoViewIfNeeded();
      await home.page.getByTestId('now-playing-title').waitFor();
      await home.page.locator('#player').screenshot({ path: path.join(shotDir, `radio-home-player-${name}.png`) });
      for (const [p, member] of [
        ['/dhr1', dhr1Member],
        ['/birdy', undefined],
        ['/player/dhr1', undefined],
        ['/track-ident', dhr1Member],
      ] as const) {
        const o = await open(p, { viewport, member });
        await o.go();
        // The event stream keeps the network busy: give the page a moment to settle instead.
        await o.page.waitForTimeout(1500);
        await o.page.screenshot({ path: path.join(shotDir, `radio${p.replace(/\//g, '-')}-${name}.png`), fullPage: true });
        expect(o.errors, p).toEqual([]);
        const overflow = await o.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${p} scrolls sideways at ${viewport.width}px`).toBeLessThanOrEqual(0);
      }
    }
  });

  it('track history: VIP stats and a dated CSV; non-admins are sent from the admin page; admins clear it', async () => {
    const vip = await createMember(h.app, { subscriptionTier: 'vip', subscriptionStatus: 'active' });
    const v = await open('/admin/track-history', { member: vip });
    await v.go();
    await v.page.waitForURL('**/vip/track-history');
    await v.page.getByText('High Confidence (80%+)').waitFor();
    await v.page.getByTestId('track-history-list').getByText('Space Station').waitFor();
    const [download] = await Promise.all([v.page.waitForEvent('download'), v.page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^dhr-track-history-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = await download.path();
    const csv = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
    expect(csv.split('\r\n')[0]).toBe(
      '"Identified At","Title","Artist","Album","Confidence","Service","Duration","Release Date","YouTube URL","SoundCloud URL","Spotify URL"',
    );
    expect(csv).toContain('"Space Station","Kerri Chandler","Computer Games","96","audd","6:52"');
    // Only links to the track are exported: the searches of its other two services are left empty.
    expect(csv).toMatch(/"Space Station",.*,"https:\/\/www\.youtube\.com\/watch\?v=spacest01","",""\r\n/);
    expect(csv).not.toContain('search');
    // VIPs do not get Clear History.
    expect(await v.page.getByRole('button', { name: 'Clear History' }).count()).toBe(0);
    await shoot(v.page, 'vip-history');

    const admin = await createMember(h.app, { isAdmin: true });
    const a = await open('/admin/track-history', { member: admin });
    await a.go();
    await a.page.getByText('Unique artists').waitFor();
    await a.page.getByText('monitoring runs every 2 minutes').waitFor();
    await a.page.getByRole('button', { name: 'Clear History' }).click();
    const dialog = a.page.getByRole('dialog');
    await dialog.getByText('Clear track history?').waitFor();
    await dialog.getByRole('button', { name: 'Clear History' }).click();
    await a.page.getByText('No tracks identified yet').waitFor();
    expect([...v.errors, ...a.errors]).toEqual([]);
  });

  async function shoot(page: Page, name: string) {
    if (!SCREENSHOT_DIR) return;
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `radio-${name}-check.png`), fullPage: true });
  }
});
