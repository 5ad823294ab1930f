import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app';
import { assertAzuraShape } from '../support/azuracast-schema';
import { onAir } from '../support/now-playing';
import { openSse, type SseLines } from '../support/sse-lines';

interface Publication {
  data: { np: { station: { shortcode: string }; now_playing: { song: { title: string } } | null }; current_time?: number };
  offset: number;
}
type Message = { connect: { subs: Record<string, { publications: Publication[] }>; time: number } } | { channel: string; pub: Publication };

const messages = (sse: SseLines) => sse.data.map((d) => JSON.parse(d) as Message);
const pubs = (sse: SseLines) => messages(sse).flatMap((m) => ('pub' in m ? [m] : []));

describe("AzuraCast's now-playing SSE (GET /api/live/nowplaying/sse, Centrifugo's contract)", async () => {
  const app = await createTestApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const open: SseLines[] = [];
  afterAll(() => open.forEach((s) => s.close()));
  const connect = async (subs: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const sse = await openSse(`${base}/api/live/nowplaying/sse?${new URLSearchParams({ cf_connect: JSON.stringify({ subs }) }).toString()}`, headers);
    open.push(sse);
    return sse;
  };

  it("opens with each subscribed station's current document, then publishes each change to that station's subscribers only", async () => {
    await app.modules.nowPlaying.publish(onAir('dhr1', 'Kerri Chandler', 'Rain'));
    const sse = await connect({ 'station:dhr1': { recover: true } }, { origin: 'https://widgets.example' });
    expect(sse.status).toBe(200);
    expect(sse.headers['content-type']).toContain('text/event-stream');
    expect(sse.headers['access-control-allow-origin']).toBe('*');
    await sse.waitFor('the connect message', (d) => d.length > 0);
    const [first] = messages(sse);
    if (!first || !('connect' in first)) throw new Error(`first message is not a connect: ${sse.data[0]}`);
    expect(Math.abs(first.connect.time - Date.now())).toBeLessThan(10_000);
    const initial = first.connect.subs['station:dhr1']?.publications[0];
    assertAzuraShape('Api_NowPlaying', initial?.data.np);
    expect(initial?.data.np.now_playing?.song.title).toBe('Rain');

    await app.modules.nowPlaying.publish(onAir('dhr2', 'Theo Parrish', 'Summertime Is Here'));
    await app.modules.nowPlaying.publish(onAir('dhr1', 'Moodymann', 'Shades Of Jae'));
    await sse.waitFor('the change', () => pubs(sse).length > 0);
    const [change, ...more] = pubs(sse);
    expect(more).toEqual([]);
    expect(change?.channel).toBe('station:dhr1');
    assertAzuraShape('Api_NowPlaying', change?.pub.data.np);
    expect(change?.pub.data.np.now_playing?.song.title).toBe('Shades Of Jae');
    expect(Math.abs((change?.pub.data.current_time ?? 0) - Date.now() / 1000)).toBeLessThan(10);
    expect(change?.pub.offset).toBeGreaterThan(initial?.offset ?? Infinity);
  });

  it('takes a shortcode in any case, and leaves unknown stations out of the connect message', async () => {
    const sse = await connect({ 'station:DHR2': {}, 'station:nope': {}, 'global:time': {} });
    await sse.waitFor('the connect message', (d) => d.length > 0);
    const [first] = messages(sse);
    if (!first || !('connect' in first)) throw new Error('no connect message');
    expect(Object.keys(first.connect.subs)).toEqual(['station:dhr2']);
    await app.modules.nowPlaying.publish(onAir('dhr2', 'Theo Parrish', 'Falling Up'));
    await sse.waitFor('the dhr2 change', () => pubs(sse).some((p) => p.pub.data.np.now_playing?.song.title === 'Falling Up'));
  });

  it('refuses a cf_connect that is not a connect request with 400', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/live/nowplaying/sse?cf_connect=not-json' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'validation_error' } });
  });
});
