import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { access } from '../../src/contracts/access-policy';
import { MemoryAnswers, memoryAnswersPlugin, pickEncoding } from '../../src/server/plugins/memory-answers';
import { metricsPlugin } from '../../src/server/plugins/metrics';
import { createMember, createTestApp, memberWithRole, readMetrics } from '../support/app';

interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as sent, decoded from its content-encoding. */
  body: string;
}

/** The public reads whose modules keep their answer in memory (plugins/memory-answers.ts). */
const MEMORY_READS = [
  '/api/health',
  '/api/channels',
  '/api/live-metadata',
  // The web player's cache busting (get-live-metadata.ts) is answered from memory too.
  '/api/live-metadata?t=1795460153946',
  '/api/live-metadata/dhr2',
  '/api/live-metadata/dhr2?t=1795460153946&nocache=1',
  '/api/comments/homepage',
  '/api/comments/recent',
  '/api/comments/recent/5',
  '/api/articles/prioritized',
  '/api/rss/latest',
  '/api/crawler/all',
  '/api/forum/posts',
  '/api/shop/products',
  // AzuraCast's station list and stations (their now-playing documents move with the clock each second).
  '/api/stations',
  '/api/station/dhr1',
  '/api/station/1',
  // AzuraCast's now-playing documents: their `elapsed` moves with the clock, so only their headers are compared.
  '/api/nowplaying',
  '/api/nowplaying/dhr1',
  '/api/nowplaying_static/dhr1.json',
];
/** Answers rebuilt every second: two reads a second apart differ in their body. */
const MOVES_WITH_CLOCK = new Set(['/api/nowplaying', '/api/nowplaying/dhr1', '/api/nowplaying_static/dhr1.json']);

/** Headers that differ between any two replies (time, connection) or with the compressor's settings. */
const VOLATILE = new Set(['date', 'connection', 'keep-alive', 'content-length']);

function comparable(headers: http.IncomingHttpHeaders): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !VOLATILE.has(k)));
}

describe('public reads answered from memory', async () => {
  const app = await createTestApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;

  function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawReply> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const body = encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body.toString('utf8') });
        });
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** The request, and whether the memory path answered it. */
  async function served(path: string, headers: Record<string, string> = {}, method = 'GET') {
    const before = app.memoryAnswers.served;
    const reply = await get(path, headers, method);
    return { reply, fromMemory: app.memoryAnswers.served > before };
  }

  it('answers every cached public read from memory exactly as the route does', async () => {
    for (const path of MEMORY_READS) {
      for (const encoding of [undefined, 'gzip', 'br']) {
        const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
        const first = await served(path, headers); // through the route: fills the module's cache
        const second = await served(path, headers);
        expect(second.fromMemory, `${path} ${encoding ?? 'identity'}`).toBe(true);
        expect(second.reply.status, path).toBe(first.reply.status);
        if (!MOVES_WITH_CLOCK.has(path)) expect(second.reply.body, path).toBe(first.reply.body);
        expect(comparable(second.reply.headers), `${path} ${encoding ?? 'identity'}`).toEqual(comparable(first.reply.headers));
      }
    }
  });

  it("covers every route that answers from memory, read from the app's own routes", () => {
    const pattern = (url: string) => new RegExp(`^${url.replace(/:\w+/g, '[^/?]+')}(\\?|$)`);
    const uncovered = app.memoryAnswers.memoryRoutes().filter((url) => !MEMORY_READS.some((path) => pattern(url).test(path)));
    expect(uncovered).toEqual([]);
    expect(app.memoryAnswers.memoryRoutes().length).toBeGreaterThanOrEqual(15);
  });

  it('compresses large answers once, as the client accepts them', async () => {
    await get('/api/shop/products');
    const br = await served('/api/shop/products', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.fromMemory).toBe(true);
    expect(br.reply.headers['content-encoding']).toBe('br');
    expect(br.reply.headers.vary).toBe('accept-encoding');
    expect(JSON.parse(br.reply.body)).toHaveLength(8);
    const gzip = await served('/api/shop/products', { 'accept-encoding': 'br;q=0, gzip' });
    expect(gzip.reply.headers['content-encoding']).toBe('gzip');
    expect(gzip.reply.body).toBe(br.reply.body);
    const plain = await served('/api/shop/products', { 'accept-encoding': 'identity' });
    expect(plain.reply.headers['content-encoding']).toBeUndefined();
    expect(plain.reply.body).toBe(br.reply.body);
  });

  it('answers a matching If-None-Match with 304 and no body', async () => {
    const first = await get('/api/rss/latest');
    const etag = String(first.headers.etag);
    const again = await served('/api/rss/latest', { 'if-none-match': etag });
    expect(again.fromMemory).toBe(true);
    expect(again.reply.status).toBe(304);
    expect(again.reply.body).toBe('');
  });

  it('shows a change at once: a product an admin adds is in the next public read', async () => {
    const admin = await memberWithRole(app, 'admin');
    await get('/api/shop/products');
    expect((await served('/api/shop/products')).fromMemory).toBe(true);
    const id = `memory_${Date.now()}`;
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/shop/products',
      headers: { cookie: admin.cookie },
      payload: {
        id,
        name: 'Memory Tee',
        price: 20,
        category: 'clothing',
        images: ['/images/shop/dhr-classic-tee.svg'],
        description: 'A tee for the memory path test.',
        originalPrice: null,
        sizes: ['M'],
        colors: null,
        rating: 4,
        reviews: 1,
        inStock: true,
        featured: false,
        isActive: true,
        tags: ['tee'],
        redbubbleUrl: 'https://www.redbubble.com/i/t-shirt/memory',
      },
    });
    expect(created.statusCode).toBe(201);
    const after = await served('/api/shop/products');
    expect(after.fromMemory).toBe(false); // the cache was dropped: the route reads the catalogue again
    expect(after.reply.body).toContain(id);
    expect((await served('/api/shop/products')).reply.body).toContain(id);
  });

  it('leaves HEAD, query strings, unknown paths and writes to the routes', async () => {
    await get('/api/live-metadata');
    expect((await served('/api/live-metadata', {}, 'HEAD')).fromMemory).toBe(false);
    const withQuery = await served('/api/live-metadata?x=1');
    expect(withQuery.fromMemory).toBe(false);
    expect(withQuery.reply.status).toBe((await get('/api/live-metadata')).status);
    expect((await served('/api/live-metadata?t=' + 'x'.repeat(100))).reply.status).toBe(400);
    expect((await served('/api/comments/recent/0')).reply.status).toBe(400);
    const missing = await served('/api/shop/products/extra');
    expect(missing.fromMemory).toBe(false);
    expect(missing.reply.status).toBe(404);
  });

  it('routes a static path to its own route, not to a parametric one that also matches', async () => {
    // /api/comments/recent is its own route; /api/comments/:articleId would match it too.
    await get('/api/comments/recent');
    const recent = await served('/api/comments/recent');
    expect(recent.fromMemory).toBe(true);
    const viaRoute = await app.inject('/api/comments/recent');
    expect(recent.reply.body).toBe(viaRoute.body);
  });

  it('sends a request with a session to a route whose answer depends on it, and not to one whose answer does not', async () => {
    const member = await createMember(app);
    await get('/api/forum/posts');
    expect((await served('/api/forum/posts')).fromMemory).toBe(true);
    const signedIn = await served('/api/forum/posts', { cookie: member.cookie });
    expect(signedIn.fromMemory).toBe(false);
    expect(signedIn.reply.headers['cache-control']).toContain('no-store');
    // Another site's cookie alone is not a session.
    expect((await served('/api/forum/posts', { cookie: 'theme=dark' })).fromMemory).toBe(true);
    await get('/api/channels');
    expect((await served('/api/channels', { cookie: member.cookie })).fromMemory).toBe(true);
  });

  it('counts memory answers in the route’s request duration series', async () => {
    const series = (text: string) =>
      Number(/dhr_http_request_duration_seconds_count\{method="GET",route="\/api\/channels",status="200"\} (\d+)/.exec(text)?.[1] ?? 0);
    const before = series((await readMetrics(app)).body);
    await get('/api/channels');
    await get('/api/channels');
    expect(series((await readMetrics(app)).body)).toBe(before + 2);
  });
});

describe('the memory path and the access policy', () => {
  it('refuses to register a memory answer on a route that is not public', async () => {
    const app = Fastify({ logger: false });
    app.decorate('config', { secureCookies: false } as never);
    await app.register(metricsPlugin);
    await app.register(memoryAnswersPlugin, { answers: new MemoryAnswers(), logRequests: false });
    expect(() =>
      app.get('/members-only', { config: { access: access.member, fromMemory: () => ({ body: '{}', cacheControl: 'no-store' }) } }, async () => ({})),
    ).toThrow(/policy is not public/);
    await app.close();
  });

  it('picks br, then gzip, and respects q=0', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('br; q=0.0, gzip;q=0')).toBeUndefined();
    expect(pickEncoding('*')).toBe('gzip');
    expect(pickEncoding('identity')).toBeUndefined();
    expect(pickEncoding(undefined)).toBeUndefined();
  });
});
