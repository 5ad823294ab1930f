import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { liveMetadataSchema, metadataHealthSchema } from '../../src/contracts/radio';
import { findMount, splitTitle, statusUrlFor } from '../../src/server/modules/radio/icecast-status';
import { NOW_PLAYING_CHANNEL } from '../../src/server/modules/radio/now-playing';
import { createTestApp, memberWithRole, readMetrics } from '../support/app';

/** A stand-in Icecast status endpoint on loopback whose behaviour each test picks. */
type Mode = 'one' | 'two' | 'garbage' | 'slow' | 'error' | 'not-icecast' | 'no-source';
let mode: Mode = 'one';
let titles = { dhr1: 'Kerri Chandler - Rain', dhr2: 'Larry Heard - Can You Feel It' };
let listeners = 7;

function source(mount: 'dhr1' | 'dhr2', port: number) {
  return {
    listenurl: `http://radio.example:${port}/${mount}`,
    title: titles[mount],
    listeners,
    audio_bitrate: 320000 / 1000,
    genre: 'Deep House',
    server_name: mount,
  };
}

const statusServer = http.createServer((req, res) => {
  const port = (statusServer.address() as AddressInfo).port;
  const json = (doc: unknown) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(doc));
  };
  switch (mode) {
    case 'one':
      return json({ icestats: { admin: 'x', host: 'radio.example', source: source('dhr1', port) } });
    case 'two':
      return json({ icestats: { admin: 'x', source: [source('dhr2', port), source('dhr1', port)] } });
    case 'no-source':
      return json({ icestats: { admin: 'x', host: 'radio.example' } });
    case 'garbage':
      res.end('<html>%%% not json');
      return;
    case 'not-icecast':
      return json([1, 2, 3]);
    case 'error':
      res.statusCode = 500;
      res.end('boom');
      return;
    case 'slow':
      // Answers long after the reader's timeout.
      setTimeout(() => json({ icestats: { source: source('dhr1', port) } }), 3000).unref();
      return;
  }
});

let base = '';
beforeAll(async () => {
  await new Promise<void>((r) => statusServer.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(statusServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  statusServer.closeAllConnections();
  await new Promise((r) => statusServer.close(r));
});

describe('status-json parsing', () => {
  it('splits "Artist - Title" at the first separator', () => {
    expect(splitTitle('Kerri Chandler - Rain - Original Mix')).toEqual({ artist: 'Kerri Chandler', title: 'Rain - Original Mix' });
    expect(splitTitle('Just a title')).toEqual({ artist: '', title: 'Just a title' });
    expect(splitTitle('  ')).toEqual({ artist: '', title: '' });
  });

  it('finds a mount by the path of listenurl in object and array shapes', () => {
    const one = { icestats: { source: { listenurl: 'http://other-host:8000/dhr1', title: 'A - B', listeners: '3', bitrate: '128' } } };
    expect(findMount(one, '/dhr1')).toMatchObject({ artist: 'A', title: 'B', listeners: 3, bitrate: 128 });
    expect(findMount(one, '/dhr2')).toBeNull();
    const two = {
      icestats: {
        source: [
          { listenurl: 'http://h/dhr2', title: 'C - D' },
          { listenurl: 'http://h/dhr1', title: 'A - B' },
        ],
      },
    };
    expect(findMount(two, '/dhr2')).toMatchObject({ artist: 'C', title: 'D', listeners: null });
    expect(findMount({ icestats: {} }, '/dhr1')).toBeNull();
    expect(() => findMount({ nope: 1 }, '/dhr1')).toThrow();
    expect(() => findMount('x', '/dhr1')).toThrow();
  });

  it('derives the status URL from the stream origin unless one is given', () => {
    expect(statusUrlFor('https://radio.example:8443/dhr1', null)).toBe('https://radio.example:8443/status-json.xsl');
    expect(statusUrlFor('https://radio.example/dhr1', 'http://10.0.0.5/status-json.xsl')).toBe('http://10.0.0.5/status-json.xsl');
  });
});

describe('live metadata from a status endpoint', async () => {
  const app = await createTestApp({
    DHR1_STREAM_URL: 'http://stream.invalid:8000/dhr1',
    DHR2_STREAM_URL: 'http://stream.invalid:8000/dhr2',
    // Both channels read the loopback status server; the stream host itself is never contacted here.
    DHR1_STATUS_URL: 'http://127.0.0.1:1/unused',
    DHR2_STATUS_URL: 'http://127.0.0.1:1/unused',
  });

  beforeEach(async () => {
    // Point both channels at this file's status server (the port is only known after listen).
    await app.database.db.execute(`update channels set status_url = '${base}/status-json.xsl'`);
    app.modules.nowPlaying.statusTimeoutMs = 500;
    mode = 'one';
    titles = { dhr1: 'Kerri Chandler - Rain', dhr2: 'Larry Heard - Can You Feel It' };
    listeners = 7;
  });

  it('answers 503 with the error envelope before the channel has been read', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/live-metadata' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ error: { code: 'channel_offline' } });
    expect(res.json<{ message: string }>().message).toContain('DHR1 Premium');
  });

  it('serves dhr1 from one mount (object shape) with listeners and bitrate', async () => {
    await app.modules.nowPlaying.pollOnce();
    const res = await app.inject({ method: 'GET', url: '/api/live-metadata?t=123' });
    expect(res.statusCode).toBe(200);
    const body = liveMetadataSchema.parse(res.json());
    expect(body).toMatchObject({ artist: 'Kerri Chandler', title: 'Rain', album: '', current_track: 'Kerri Chandler - Rain', listeners: 7, bitrate: 320 });
    expect(res.headers['cache-control']).toBe('no-cache');
    // dhr2 has no mount in the object shape: off air.
    expect((await app.inject({ method: 'GET', url: '/api/live-metadata/dhr2' })).statusCode).toBe(503);
  });

  it('serves both channels from the array shape, dhr2 with anti-cache headers', async () => {
    mode = 'two';
    await app.modules.nowPlaying.pollOnce();
    const res = await app.inject({ method: 'GET', url: `/api/live-metadata/dhr2?t=${Date.now()}&nocache=1` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ artist: 'Larry Heard', title: 'Can You Feel It' });
    expect(res.headers['cache-control']).toContain('no-store');
    expect(res.headers.pragma).toBe('no-cache');
    expect(res.headers.expires).toBe('0');
    expect((await app.inject({ method: 'GET', url: '/api/live-metadata/dhr1' })).json()).toMatchObject({ title: 'Rain' });
  });

  it('answers 304 to a matching If-None-Match and a new ETag after a change', async () => {
    await app.modules.nowPlaying.pollOnce();
    const first = await app.inject({ method: 'GET', url: '/api/live-metadata' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await app.inject({ method: 'GET', url: '/api/live-metadata?t=2', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    titles.dhr1 = 'Moodymann - Shades Of Jae';
    await app.modules.nowPlaying.pollOnce();
    const changed = await app.inject({ method: 'GET', url: '/api/live-metadata', headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json()).toMatchObject({ artist: 'Moodymann', title: 'Shades Of Jae' });
  });

  it('updates listener figures without a title change', async () => {
    await app.modules.nowPlaying.pollOnce();
    listeners = 42;
    await app.modules.nowPlaying.pollOnce();
    expect((await app.inject({ method: 'GET', url: '/api/live-metadata' })).json()).toMatchObject({ title: 'Rain', listeners: 42 });
  });

  for (const bad of ['garbage', 'not-icecast', 'error', 'slow'] as const) {
    it(`survives a status endpoint that is ${bad}: keeps the title once, then goes off air`, async () => {
      await app.modules.nowPlaying.pollOnce();
      mode = bad;
      await app.modules.nowPlaying.pollOnce();
      // One failed read keeps what listeners see.
      expect((await app.inject({ method: 'GET', url: '/api/live-metadata' })).statusCode).toBe(200);
      await app.modules.nowPlaying.pollOnce();
      const res = await app.inject({ method: 'GET', url: '/api/live-metadata' });
      expect(res.statusCode).toBe(503);
      // And it comes back by itself.
      mode = 'one';
      await app.modules.nowPlaying.pollOnce();
      expect((await app.inject({ method: 'GET', url: '/api/live-metadata' })).json()).toMatchObject({ title: 'Rain' });
    });
  }

  /** What this instance tells the others through NOTIFY while `run` runs. */
  async function published(run: () => Promise<void>): Promise<{ e: { channel: string; online: boolean } }[]> {
    const seen: string[] = [];
    const unlisten = await app.database.listen(NOW_PLAYING_CHANNEL, (p) => seen.push(p));
    try {
      await run();
      await new Promise((r) => setTimeout(r, 150));
    } finally {
      await unlisten();
    }
    return seen.map((p) => JSON.parse(p) as { e: { channel: string; online: boolean } });
  }

  it('survives Icecast being down (connection refused), without telling other instances it is off air', async () => {
    await app.modules.nowPlaying.pollOnce();
    await app.database.db.execute(`update channels set status_url = 'http://127.0.0.1:1/status-json.xsl'`);
    const sent = await published(async () => {
      await app.modules.nowPlaying.pollOnce();
      await app.modules.nowPlaying.pollOnce();
    });
    expect((await app.inject({ method: 'GET', url: '/api/live-metadata' })).statusCode).toBe(503);
    // Only this instance failed to read Icecast; the others may still reach it.
    expect(sent.filter((n) => n.e.channel === 'dhr1')).toEqual([]);
  });

  it('goes off air at once, for every instance, when Icecast no longer lists the mount', async () => {
    await app.modules.nowPlaying.pollOnce();
    mode = 'no-source';
    const sent = await published(() => app.modules.nowPlaying.pollOnce());
    expect((await app.inject({ method: 'GET', url: '/api/live-metadata' })).statusCode).toBe(503);
    expect(sent.map((n) => n.e)).toContainEqual(expect.objectContaining({ channel: 'dhr1', online: false }));
  });

  it('exposes air state, listeners and SSE clients at /metrics', async () => {
    await app.modules.nowPlaying.pollOnce();
    const text = (await readMetrics(app)).body;
    expect(text).toContain('dhr_channel_on_air{channel="dhr1"} 1');
    expect(text).toContain('dhr_channel_on_air{channel="dhr2"} 0');
    expect(text).toContain('dhr_channel_listeners{channel="dhr1"} 7');
    expect(text).toMatch(/dhr_sse_clients \d+/);
  });

  it('GET /api/health/metadata tells the admin how each channel is read', async () => {
    await app.modules.nowPlaying.pollOnce();
    const admin = await memberWithRole(app, 'admin');
    const ok = await app.inject({ method: 'GET', url: '/api/health/metadata', headers: { cookie: admin.cookie } });
    expect(ok.statusCode).toBe(200);
    const body = metadataHealthSchema.parse(ok.json());
    expect(body.recognizer).toBe('none');
    const dhr1 = body.channels.find((c) => c.channel === 'dhr1');
    expect(dhr1).toMatchObject({
      name: 'DHR1 Premium',
      online: true,
      title: 'Rain',
      statusUrl: `${base}/status-json.xsl`,
      consecutiveFailures: 0,
      lastError: null,
    });
    expect(dhr1?.lastReadAt).not.toBeNull();
    expect(body.channels.find((c) => c.channel === 'dhr2')?.lastError).toContain('no source on mount /dhr2');

    mode = 'garbage';
    await app.modules.nowPlaying.pollOnce();
    const failing = metadataHealthSchema.parse((await app.inject({ method: 'GET', url: '/api/health/metadata', headers: { cookie: admin.cookie } })).json());
    expect(failing.channels.find((c) => c.channel === 'dhr1')).toMatchObject({ consecutiveFailures: 1, online: true });
    expect(failing.channels.find((c) => c.channel === 'dhr1')?.lastError).toMatch(/JSON/);

    expect((await app.inject({ method: 'GET', url: '/api/health/metadata' })).statusCode).toBe(401);
    const vip = await memberWithRole(app, 'vip');
    const refused = await app.inject({ method: 'GET', url: '/api/health/metadata', headers: { cookie: vip.cookie } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toBe('Admin privileges required');
  });

  it('answers 404 for an unknown channel and 400 for a malformed one', async () => {
    const unknown = await app.inject({ method: 'GET', url: '/api/live-metadata/dhr9' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ message: string }>().message).toContain("Unknown channel 'dhr9'");
    const bad = await app.inject({ method: 'GET', url: `/api/live-metadata/${encodeURIComponent('../etc')}` });
    expect(bad.statusCode).toBe(400);
    const longT = await app.inject({ method: 'GET', url: `/api/live-metadata?t=${'9'.repeat(100)}` });
    expect(longT.statusCode).toBe(400);
  });

  it('a third channel is a row, not code', async () => {
    await app.database.db.execute(
      `insert into channels (id, name, colour, stream_url, status_url, bitrate_label, required_tier, sort_order)
       values ('dhr3', 'DHR3 Test', '#fff', 'http://stream.invalid:8000/dhr3', '${base}/status-json.xsl', '128kbps', 'free', 3)`,
    );
    await app.modules.nowPlaying.pollOnce();
    // The mount is not on the status server: known channel, off air.
    const res = await app.inject({ method: 'GET', url: '/api/live-metadata/dhr3' });
    expect(res.statusCode).toBe(503);
    expect(res.json<{ message: string }>().message).toContain('DHR3 Test');
    await app.database.db.execute(`delete from channels where id = 'dhr3'`);
    await app.modules.nowPlaying.refreshChannels();
  });
});
