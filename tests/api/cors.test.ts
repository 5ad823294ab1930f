import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, memberWithRole } from '../support/app';
import { openSse, type SseLines } from '../support/sse-lines';

/** The public reads other sites' widgets may make (config.cors: 'public'), one concrete URL each. */
const PUBLIC_READS: Readonly<Record<string, string>> = {
  '/api/nowplaying': '/api/nowplaying',
  '/api/nowplaying/:shortcode': '/api/nowplaying/dhr1',
  '/api/nowplaying_static/:shortcode.json': '/api/nowplaying_static/dhr1.json',
  '/api/nowplaying/:shortcode/art': '/api/nowplaying/1/art',
  '/api/nowplaying/:shortcode/playlist.pls': '/api/nowplaying/dhr1/playlist.pls',
  '/api/nowplaying/:shortcode/playlist.m3u': '/api/nowplaying/dhr1/playlist.m3u',
  '/api/stations': '/api/stations',
  '/api/station/:shortcode': '/api/station/dhr1',
  '/api/time': '/api/time',
  '/api/live/nowplaying/sse': '/api/live/nowplaying/sse',
  '/api/live-metadata': '/api/live-metadata',
  '/api/live-metadata/:channel': '/api/live-metadata/dhr1',
  '/api/live/events': '/api/live/events',
};
const STREAMS = new Set(['/api/live/nowplaying/sse', '/api/live/events']);
const ORIGIN = 'https://widgets.example';
const WIDGET_HEADERS = ['cache-control', 'pragma', 'expires', 'x-api-key', 'content-type'];

describe('CORS: the public read API answers other sites, nothing else does', async () => {
  const app = await createTestApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const member = await memberWithRole(app, 'vip');
  const streams: SseLines[] = [];
  afterAll(() => streams.forEach((s) => s.close()));

  const preflight = (url: string) =>
    app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'cache-control, x-api-key' },
    });

  it('opens exactly the listed routes to other sites (a preflight of any other GET route answers 404)', async () => {
    const open: string[] = [];
    for (const r of app.routePolicies.filter((p) => p.method === 'GET')) {
      const url = PUBLIC_READS[r.url] ?? r.url.replace(/:[A-Za-z_]+/g, 'x').replace('*', 'about');
      if ((await preflight(url)).statusCode === 204) open.push(r.url);
    }
    expect(open.sort()).toEqual(Object.keys(PUBLIC_READS).sort());
  });

  it('answers the preflight of every public read with 204 and the allowed methods and headers, never credentials', async () => {
    for (const url of Object.values(PUBLIC_READS)) {
      const res = await preflight(url);
      expect(res.statusCode, url).toBe(204);
      expect(res.headers['access-control-allow-origin'], url).toBe('*');
      expect(String(res.headers['access-control-allow-methods']).split(/,\s*/).sort()).toEqual(['GET', 'HEAD', 'OPTIONS']);
      const allowed = String(res.headers['access-control-allow-headers']).split(/,\s*/);
      for (const h of WIDGET_HEADERS) expect(allowed, url).toContain(h);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('marks every GET answer of a public read readable by any site, through the route and from memory alike', async () => {
    for (const url of Object.values(PUBLIC_READS)) {
      if (STREAMS.has(url)) {
        const sse = await openSse(`${base}${url}`, { origin: ORIGIN });
        streams.push(sse);
        expect(sse.headers['access-control-allow-origin'], url).toBe('*');
        continue;
      }
      // Twice over HTTP (the second may come from memory: plugins/memory-answers.ts), and through inject.
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${base}${url}`, { headers: { origin: ORIGIN }, redirect: 'manual' });
        await res.arrayBuffer();
        expect(res.headers.get('access-control-allow-origin'), url).toBe('*');
        expect(res.headers.get('cross-origin-resource-policy'), url).toBe('cross-origin');
        expect(res.headers.get('access-control-allow-credentials'), url).toBeNull();
      }
      const injected = await app.inject({ method: 'GET', url, headers: { origin: ORIGIN } });
      expect(injected.headers['access-control-allow-origin'], url).toBe('*');
    }
    // An error of a public read is readable too (a widget shows "unknown station").
    const unknown = await app.inject({ method: 'GET', url: '/api/nowplaying/nope', headers: { origin: ORIGIN } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['access-control-allow-origin']).toBe('*');
  });

  it('keeps member routes and other public routes same-origin: no CORS header, preflight 404', async () => {
    for (const url of ['/api/auth/me', '/api/me/export', '/api/supporters/links', '/api/channels']) {
      const res = await app.inject({ method: 'GET', url, headers: { origin: ORIGIN, cookie: member.cookie } });
      expect(res.headers['access-control-allow-origin'], url).toBeUndefined();
      const pre = await preflight(url);
      expect(pre.statusCode, url).toBe(404);
      expect(pre.headers['access-control-allow-origin'], url).toBeUndefined();
    }
  });

  it("never honours a member's cookie on a request from another site (the live events stream is a visitor's)", async () => {
    const crossSite = await openSse(`${base}/api/live/events`, { origin: ORIGIN, cookie: member.cookie });
    streams.push(crossSite);
    expect(crossSite.status).toBe(200);
    expect(app.modules.events.hub.endStreamsOf({ userId: member.user.id })).toBe(0);
    const sameSite = await openSse(`${base}/api/live/events`, { cookie: member.cookie });
    streams.push(sameSite);
    await expect.poll(() => app.modules.events.hub.endStreamsOf({ userId: member.user.id }), { timeout: 3000 }).toBe(1);
  });
});
