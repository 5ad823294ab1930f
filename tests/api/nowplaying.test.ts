import { describe, expect, it } from 'vitest';
import { azuraNowPlayingListSchema, azuraStationNowPlayingSchema } from '../../src/contracts/nowplaying';
import { createTestApp } from '../support/app';
import { onAir } from '../support/now-playing';

describe('GET /api/nowplaying (AzuraCast-compatible now playing)', async () => {
  const app = await createTestApp();
  const { DHR1_STREAM_URL, DHR2_STREAM_URL, DHR1_FREE_STREAM_URL, PUBLIC_URL } = app.config;
  /** A new second: each answer is built at most once a second. */
  const nextSecond = () => new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));

  it('lists every channel in AzuraCast shape, with only the free mount as a listen URL', async () => {
    await app.nowPlaying.publish(onAir('dhr1', 'Kerri Chandler', 'Rain', 12));
    await nextSecond();
    const res = await app.inject({ method: 'GET', url: '/api/nowplaying', headers: { origin: 'https://widgets.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toContain('public');
    const list = azuraNowPlayingListSchema.parse(res.json());
    expect(list.map((s) => s.station.shortcode)).toEqual(['dhr1', 'dhr2']);
    const [dhr1, dhr2] = list;
    expect(dhr1?.station.listen_url).toBe(DHR1_FREE_STREAM_URL);
    expect(dhr1?.station.mounts.map((m) => m.url)).toEqual([DHR1_FREE_STREAM_URL]);
    expect(dhr1?.station.playlist_pls_url).toBe(`${PUBLIC_URL}/api/nowplaying/dhr1/playlist.pls`);
    expect(dhr1?.is_online).toBe(true);
    expect(dhr1?.listeners.current).toBe(12);
    expect(dhr1?.now_playing.song).toMatchObject({ artist: 'Kerri Chandler', title: 'Rain', text: 'Kerri Chandler - Rain' });
    // DHR2 has no free mount: nothing to listen to without a member's token, and it is off air here.
    expect(dhr2?.station.listen_url).toBe('');
    expect(dhr2?.station.mounts).toEqual([]);
    expect(dhr2?.is_online).toBe(false);
    expect(dhr2?.now_playing.song.text).toContain('off air');
    // The premium mounts never appear, in any field.
    expect(res.body).not.toContain(`"${DHR1_STREAM_URL}"`);
    expect(res.body).not.toContain(`"${DHR2_STREAM_URL}"`);
    expect(res.body).not.toContain(`"${new URL(DHR1_STREAM_URL).pathname}"`);
  });

  it('keeps the song history newest first and counts elapsed time from the change', async () => {
    await app.nowPlaying.publish(onAir('dhr1', 'Larry Heard', 'Can You Feel It', 12));
    await app.nowPlaying.publish(onAir('dhr1', 'Moodymann', 'Shades Of Jae', 12));
    await nextSecond();
    const res = await app.inject({ method: 'GET', url: '/api/nowplaying/dhr1' });
    expect(res.statusCode).toBe(200);
    const doc = azuraStationNowPlayingSchema.parse(res.json());
    expect(doc.now_playing.song.title).toBe('Shades Of Jae');
    expect(doc.now_playing.elapsed).toBeGreaterThanOrEqual(0);
    expect(doc.now_playing.elapsed).toBeLessThan(5);
    expect(doc.song_history.map((h) => h.song.title)).toEqual(['Can You Feel It', 'Rain']);
    expect(doc.song_history[0]?.sh_id).toBeLessThan(doc.now_playing.sh_id);
  });

  it('follows a change within a second (the answer is rebuilt from memory)', async () => {
    await app.nowPlaying.publish(onAir('dhr1', 'Ron Trent', 'Altered States', 12));
    await nextSecond();
    const doc = (await app.inject({ method: 'GET', url: '/api/nowplaying/dhr1' })).json() as { now_playing: { song: { title: string } } };
    expect(doc.now_playing.song.title).toBe('Altered States');
  });

  it('answers an unknown channel with 404 in the error envelope', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/nowplaying/dhr9' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: 'unknown_channel' } });
  });

  it('serves .pls and .m3u playlists of the free mount only', async () => {
    const pls = await app.inject({ method: 'GET', url: '/api/nowplaying/dhr1/playlist.pls' });
    expect(pls.statusCode).toBe(200);
    expect(pls.headers['content-type']).toContain('audio/x-scpls');
    expect(pls.body).toContain(`File1=${DHR1_FREE_STREAM_URL}`);
    expect(pls.body).toContain('NumberOfEntries=1');
    const m3u = await app.inject({ method: 'GET', url: '/api/nowplaying/dhr1/playlist.m3u' });
    expect(m3u.statusCode).toBe(200);
    expect(m3u.body.split('\n')).toEqual(['#EXTM3U', expect.stringContaining('#EXTINF:-1,'), DHR1_FREE_STREAM_URL, '']);
    const none = await app.inject({ method: 'GET', url: '/api/nowplaying/dhr2/playlist.m3u' });
    expect(none.statusCode).toBe(404);
    expect(none.body).not.toContain(`${DHR2_STREAM_URL}`);
  });
});
