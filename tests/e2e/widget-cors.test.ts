import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, startBrowserHarness, type BrowserHarness } from '../support/browser';
import { onAir } from '../support/now-playing';

/**
 * A radio widget on another site: a page served from another loopback origin reads DHR's AzuraCast API
 * with fetch() and its SSE stream with EventSource, as third-party widgets do (plugins/cors.ts).
 * Needs only Chromium (no web build): the page is the widget's own.
 */
const WIDGET_PAGE = (api: string) => `<!doctype html><html><body>
<p id="fetched">…</p><p id="live">…</p><p id="member">…</p>
<script>
const api = ${JSON.stringify(api)};
fetch(api + '/api/nowplaying', { headers: { 'cache-control': 'no-cache' } })
  .then((r) => r.json())
  .then((list) => { document.getElementById('fetched').textContent = list[0].station.shortcode + ': ' + list[0].now_playing.song.title; })
  .catch((e) => { document.getElementById('fetched').textContent = 'failed: ' + e; });
fetch(api + '/api/auth/me', { credentials: 'include' })
  .then((r) => { document.getElementById('member').textContent = 'read ' + r.status; })
  .catch(() => { document.getElementById('member').textContent = 'blocked'; });
const sse = new EventSource(api + '/api/live/nowplaying/sse?' + new URLSearchParams({ cf_connect: JSON.stringify({ subs: { 'station:dhr1': { recover: true } } }) }));
sse.onmessage = (e) => {
  const m = JSON.parse(e.data);
  let np;
  if ('connect' in m) for (const sub of Object.values(m.connect.subs)) for (const p of sub.publications) np = p.data.np;
  if ('pub' in m) np = m.pub.data.np;
  if (np) document.getElementById('live').textContent = np.now_playing.song.title;
};
</script></body></html>`;

describe.skipIf(!hasChromium)('a widget on another site reads now playing (CORS)', () => {
  let h: BrowserHarness;
  let site: http.Server;
  let siteUrl = '';

  beforeAll(async () => {
    h = await startBrowserHarness();
    await h.app.modules.nowPlaying.publish(onAir('dhr1', 'Kerri Chandler', 'Rain'));
    site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(WIDGET_PAGE(h.baseUrl)));
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    site.closeAllConnections();
    await new Promise((r) => site.close(r));
  });

  it('fetches /api/nowplaying, follows the SSE stream, and cannot read a member route', async () => {
    const { page, context, errors } = await h.newPage();
    expect(new URL(siteUrl).origin).not.toBe(new URL(h.baseUrl).origin);
    await page.goto(siteUrl);
    await expect.poll(() => page.textContent('#fetched'), { timeout: 10_000 }).toBe('dhr1: Rain');
    await expect.poll(() => page.textContent('#live'), { timeout: 10_000 }).toBe('Rain');
    await h.app.modules.nowPlaying.publish(onAir('dhr1', 'Moodymann', 'Shades Of Jae'));
    await expect.poll(() => page.textContent('#live'), { timeout: 10_000 }).toBe('Shades Of Jae');
    // A route with member data stays same-origin: the browser refuses the widget its answer.
    await expect.poll(() => page.textContent('#member'), { timeout: 10_000 }).toBe('blocked');
    expect(errors.filter((e) => !e.includes('/api/auth/me') && !e.includes('net::ERR_FAILED'))).toEqual([]);
    await context.close();
  });
});
