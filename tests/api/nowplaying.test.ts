import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import {
  azuraNowPlayingListSchema,
  azuraStationListSchema,
  azuraStationNowPlayingSchema,
  azuraStationSchema,
  azuraTimeSchema,
} from '../../src/contracts/nowplaying';
import { trackIdentifications } from '../../src/server/db/schema';
import { createTestApp, readMetrics } from '../support/app';
import { assertAzuraShape } from '../support/azuracast-schema';
import { onAir } from '../support/now-playing';

/** A new second: each answer is built at most once a second. */
const nextSecond = () => new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));

describe('AzuraCast-compatible API (now playing, stations, time, art)', async () => {
  const app = await createTestApp();
  const { DHR1_STREAM_URL, DHR2_STREAM_URL, DHR1_FREE_STREAM_URL, PUBLIC_URL } = app.config;
  const stationArt = `${PUBLIC_URL}/icons/icon-512.png`;
  const get = (url: string) => app.inject({ method: 'GET', url });

  it('lists only public stations (a free stream), valid against AzuraCast 0.23, with only the free mount as a listen URL', async () => {
    await app.modules.nowPlaying.publish(onAir('dhr1', 'Kerri Chandler', 'Rain', 12));
    const res = await get('/api/nowplaying');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('public');
    assertAzuraShape('Api_NowPlaying', res.json(), { array: true });
    const list = azuraNowPlayingListSchema.parse(res.json());
    // DHR2 has no free stream: nothing anyone may play, so AzuraCast would not list it.
    expect(list.map((s) => s.station.shortcode)).toEqual(['dhr1']);
    const [dhr1] = list;
    expect(dhr1?.station).toMatchObject({
      id: 1,
      is_public: true,
      listen_url: DHR1_FREE_STREAM_URL,
      playlist_pls_url: `${PUBLIC_URL}/api/nowplaying/dhr1/playlist.pls`,
    });
    expect(dhr1?.station.mounts.map((m) => m.url)).toEqual([DHR1_FREE_STREAM_URL]);
    // The station a directory lists is the free stream: never the premium channel's name.
    expect(dhr1?.station.name).not.toContain('Premium');
    expect(dhr1?.station.mounts[0]?.name).toBe(dhr1?.station.name);
    expect(dhr1?.is_online).toBe(true);
    expect(dhr1?.listeners.current).toBe(12);
    expect(dhr1?.now_playing?.song).toMatchObject({ artist: 'Kerri Chandler', title: 'Rain', text: 'Kerri Chandler - Rain', art: stationArt });
    // sh_id is a small integer (AzuraCast's row id), not a millisecond timestamp.
    expect(dhr1?.now_playing?.sh_id).toBeGreaterThan(0);
    expect(dhr1?.now_playing?.sh_id).toBeLessThan(2 ** 31);
    // The premium mounts never appear, in any field.
    for (const premium of [DHR1_STREAM_URL, DHR2_STREAM_URL]) {
      expect(res.body).not.toContain(`"${premium}"`);
      expect(res.body).not.toContain(`"${new URL(premium).pathname}"`);
    }
  });

  it('names a station by numeric id or shortcode in any case, and serves the static file of the same document', async () => {
    await app.modules.nowPlaying.publish(onAir('dhr1', 'Larry Heard', 'Can You Feel It', 12));
    await app.modules.nowPlaying.publish(onAir('dhr1', 'Moodymann', 'Shades Of Jae', 12));
    for (const url of [
      '/api/nowplaying/dhr1',
      '/api/nowplaying/DHR1',
      '/api/nowplaying/1',
      '/api/nowplaying_static/dhr1.json',
      '/api/nowplaying_static/DHR1.json',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      assertAzuraShape('Api_NowPlaying', res.json());
      const doc = azuraStationNowPlayingSchema.parse(res.json());
      expect(doc.station.shortcode).toBe('dhr1');
      expect(doc.now_playing?.song.title).toBe('Shades Of Jae');
      expect(doc.now_playing?.elapsed).toBeLessThan(5);
      expect(doc.song_history.map((h) => h.song.title)).toEqual(['Can You Feel It', 'Rain']);
      expect(doc.song_history.every((h) => h.song.art === stationArt)).toBe(true);
      expect(doc.song_history[0]?.sh_id).toBeLessThan(doc.now_playing?.sh_id ?? 0);
    }
    for (const url of ['/api/nowplaying/dhr9', '/api/nowplaying/3', '/api/nowplaying_static/dhr9.json', '/api/station/9']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'unknown_channel' } });
    }
  });

  it('answers a station without a free stream by name (not listed): no listen URL, no mount, off air', async () => {
    const res = await get('/api/nowplaying/dhr2');
    expect(res.statusCode).toBe(200);
    assertAzuraShape('Api_NowPlaying', res.json());
    const doc = azuraStationNowPlayingSchema.parse(res.json());
    expect(doc.station).toMatchObject({ id: 2, is_public: false, listen_url: null, mounts: [], playlist_pls_url: '' });
    expect(doc.is_online).toBe(false);
    expect(doc.now_playing?.song.text).toContain('off air');
    expect(doc.now_playing?.song.art).toBe(stationArt);
    expect(res.body).not.toContain(DHR2_STREAM_URL);
  });

  it('lists the public stations and answers one by id or shortcode (GET /api/stations, /api/station/{id})', async () => {
    const list = await get('/api/stations');
    expect(list.statusCode).toBe(200);
    assertAzuraShape('Api_NowPlaying_Station', list.json(), { array: true });
    expect(azuraStationListSchema.parse(list.json()).map((s) => s.shortcode)).toEqual(['dhr1']);
    for (const url of ['/api/station/1', '/api/station/Dhr1']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      assertAzuraShape('Api_NowPlaying_Station', res.json());
      expect(azuraStationSchema.parse(res.json())).toMatchObject({ shortcode: 'dhr1', listen_url: DHR1_FREE_STREAM_URL });
    }
  });

  it('tells the time as AzuraCast formats it (GET /api/time)', async () => {
    const res = await get('/api/time');
    expect(res.statusCode).toBe(200);
    assertAzuraShape('Api_Time', res.json());
    const time = azuraTimeSchema.parse(res.json());
    expect(Math.abs(time.timestamp - Date.now() / 1000)).toBeLessThan(5);
    expect(time.utc_json).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(time.utc_date).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    expect(time.utc_time).toMatch(/^\d{1,2}:\d{2}(am|pm)$/);
  });

  it("redirects /art to the station's picture, then to the identified track's artwork while it plays", async () => {
    const before = await get('/api/nowplaying/dhr1/art');
    expect(before.statusCode).toBe(302);
    expect(before.headers.location).toBe(stationArt);
    const artwork = 'https://images.example/cover/shades.jpg';
    const [row] = await app.database.db
      .insert(trackIdentifications)
      .values({ channel: 'dhr1', title: 'Shades Of Jae', artist: 'Moodymann', artwork, confidence: 90, service: 'audd' })
      .returning();
    if (!row) throw new Error('no row');
    app.modules.trackMonitor.onStored(row);
    // The identification is read in the background; the document is rebuilt each second.
    await expect.poll(async () => (await get('/api/nowplaying/1/art')).headers.location, { timeout: 5000, interval: 300 }).toBe(artwork);
    const doc = azuraStationNowPlayingSchema.parse((await get('/api/nowplaying/dhr1')).json());
    expect(doc.now_playing?.song.art).toBe(artwork);
    expect((await get('/api/nowplaying/dhr9/art')).statusCode).toBe(404);
  });

  it('serves .pls and .m3u playlists of the free mount only', async () => {
    const pls = await get('/api/nowplaying/dhr1/playlist.pls');
    expect(pls.statusCode).toBe(200);
    expect(pls.headers['content-type']).toContain('audio/x-scpls');
    expect(pls.body).toContain(`File1=${DHR1_FREE_STREAM_URL}`);
    expect(pls.body).toContain('NumberOfEntries=1');
    expect(pls.body).not.toContain('Premium');
    const m3u = await get('/api/nowplaying/1/playlist.m3u');
    expect(m3u.statusCode).toBe(200);
    expect(m3u.body.split('\n')).toEqual([
      '#EXTM3U',
      expect.stringMatching(/^#PLAYLIST:/),
      '#EXTGENRE:Deep House',
      expect.stringMatching(/^#EXTINF:-1 .*tvg-country="IE" tvg-language="en" group-title="Deep House",.*\(Deep House, 128 kbps[^)]*\)$/),
      DHR1_FREE_STREAM_URL,
      '',
    ]);
    // The .pls title says the genre, bitrate and codec (its format has no other place for them).
    expect(pls.body).toMatch(/^Title1=.*\(Deep House, 128 kbps[^)]*\)$/m);
    const none = await get('/api/nowplaying/dhr2/playlist.m3u');
    expect(none.statusCode).toBe(404);
    expect(none.body).not.toContain(`${DHR2_STREAM_URL}`);
  });
});

describe('listeners by mount, from Icecast status', async () => {
  // Two listeners on the free mount, one on the premium mount, as the issue reported them.
  const status = http.createServer((_req, res) => {
    const origin = `http://127.0.0.1:${(status.address() as AddressInfo).port}`;
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        icestats: {
          source: [
            {
              listenurl: `${origin}/dhr1`,
              title: 'Kerri Chandler - Rain',
              listeners: 1,
              audio_bitrate: 320,
              server_type: 'audio/mpeg',
              server_name: 'DHR premium',
            },
            {
              listenurl: `${origin}/dhr1-free`,
              title: 'Kerri Chandler - Rain',
              listeners: 2,
              audio_bitrate: 128,
              server_type: 'audio/mpeg',
              server_name: 'Deep House Radio (free)',
            },
          ],
        },
      }),
    );
  });
  await new Promise<void>((r) => status.listen(0, '127.0.0.1', r));
  afterAll(async () => {
    status.closeAllConnections();
    await new Promise((r) => status.close(r));
  });
  const origin = `http://127.0.0.1:${(status.address() as AddressInfo).port}`;
  const app = await createTestApp({ DHR1_STREAM_URL: `${origin}/dhr1`, DHR1_FREE_STREAM_URL: `${origin}/dhr1-free`, DHR2_STREAM_URL: `${origin}/dhr2` });

  it('shows each mount its own listeners, format, bitrate and name, and the station total as their sum (also in /metrics)', async () => {
    await app.modules.nowPlaying.pollOnce();
    await nextSecond();
    const res = await app.inject({ method: 'GET', url: '/api/nowplaying/dhr1' });
    assertAzuraShape('Api_NowPlaying', res.json());
    const doc = azuraStationNowPlayingSchema.parse(res.json());
    expect(doc.station.name).toBe('Deep House Radio (free)');
    expect(doc.station.mounts).toEqual([
      expect.objectContaining({
        name: 'Deep House Radio (free)',
        path: '/dhr1-free',
        format: 'mp3',
        bitrate: 128,
        listeners: { total: 2, unique: 2, current: 2 },
      }),
    ]);
    expect(doc.listeners).toEqual({ total: 3, unique: 3, current: 3 });
    const metrics = (await readMetrics(app)).body;
    expect(metrics).toMatch(/^dhr_channel_listeners\{channel="dhr1"\} 3$/m);
    expect(metrics).toMatch(/^dhr_mount_listeners\{channel="dhr1",mount="free"\} 2$/m);
    expect(metrics).toMatch(/^dhr_mount_listeners\{channel="dhr1",mount="premium"\} 1$/m);
  });
});
