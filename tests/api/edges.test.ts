import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { DAY_MS } from '../../src/contracts/time';
import { PATREON_PERIOD_DAYS } from '../../src/server/modules/platforms/mapping';
import { describe, expect, it } from 'vitest';
import { SERVER_LIMITS } from '../../src/server/app';
import { users } from '../../src/server/db/schema';
import { denial } from '../../src/server/plugins/access';
import { accessOnlyApp, createMember, createTestApp, memberWithRole } from '../support/app';
import { patreonMember } from '../support/platform-stubs';

const PATREON_SECRET = 'patreon-webhook-secret';
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

/** A web build with the canonical link the real index.html carries. */
function webRootWithCanonical(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dhr-web-'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><!-- page-head --><link rel="canonical" href="%PUBLIC_URL%/" /><!-- /page-head --></head><body><div id="root"></div></body></html>',
  );
  return dir;
}

/** The duration histogram's count for one series, and its buckets checked to be cumulative up to that count. */
async function histogramCount(app: FastifyInstance, method: string, route: string, status: number): Promise<number> {
  const text = (await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
  const labels = `method="${method}",route="${route}",status="${status}"`;
  const lines = text.split('\n');
  const count = lines.find((l) => l.startsWith(`dhr_http_request_duration_seconds_count{${labels}} `))?.split(' ')[1];
  if (!count) return 0;
  const buckets = lines.filter((l) => l.startsWith('dhr_http_request_duration_seconds_bucket{') && l.includes(labels)).map((l) => Number(l.split(' ').pop()));
  expect(buckets).toHaveLength(12);
  expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
  expect(buckets.at(-1)).toBe(Number(count));
  expect(text).toContain(`dhr_http_request_duration_seconds_bucket{le="+Inf",${labels}}`);
  return Number(count);
}

/** Sends a request head and then only part of the body, never the rest; resolves with the reply if one comes. */
function requestWithEndlessBody(url: string, headers: Record<string, string | number>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    // 64 KB of an announced 8 MB: a server that waited for the body to parse it would never answer.
    req.write('{"csvContent":"' + 'a'.repeat(64 * 1024));
  });
}

describe('the edges: logs, access before parsing, paths, metrics, caching', async () => {
  const lines: string[] = [];
  const app = await createTestApp(
    { LOG_LEVEL: 'info', PATREON_WEBHOOK_SECRET: PATREON_SECRET, METRICS_TOKEN },
    {},
    { logger: true, logStream: { write: (line: string) => void lines.push(line) }, webRoot: webRootWithCanonical() },
  );

  it('logs request URLs without their query string (tokens and emails stay out of the log)', async () => {
    lines.length = 0;
    await app.inject({ url: '/reset-password?token=SECRET-RESET-TOKEN&email=victim%40example.test' });
    await app.inject({ method: 'POST', url: '/api/auth/simple-login?token=SECRET-LOGIN-TOKEN', payload: {} });
    await app.inject({ url: '/api/nothing-here?email=victim%40example.test' });
    const log = lines.join('');
    expect(log).toContain('"url":"/reset-password"');
    expect(log).toContain('"url":"/api/auth/simple-login"');
    expect(log).not.toContain('SECRET-');
    expect(log).not.toContain('victim');
  });

  it('logs one line per request when it completes: method, path, status and time, nothing of the request besides', async () => {
    lines.length = 0;
    await app.inject({ url: '/api/channels?t=123' });
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ level: 30, msg: 'request completed', method: 'GET', url: '/api/channels', statusCode: 200 });
    expect(entries[0]?.responseTime).toEqual(expect.any(Number));
    expect(entries[0]?.reqId).toEqual(expect.any(String));
    expect(Object.keys(entries[0] ?? {}).sort()).toEqual(['hostname', 'level', 'method', 'msg', 'pid', 'reqId', 'responseTime', 'statusCode', 'time', 'url']);
  });

  it("marks the API's 404s no-store, whatever the method and whoever asks", async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await app.inject({ method, url: '/api/nothing-here' });
      expect(res.statusCode, method).toBe(404);
      expect(res.headers['cache-control'], method).toBe('no-store');
    }
    const crossSite = await app.inject({ method: 'POST', url: '/api/nothing-here', headers: { origin: 'https://evil.example' } });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.headers['cache-control']).toBe('no-store');
  });

  it('refuses an anonymous request to an admin route before reading its body', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const started = Date.now();
    const res = await requestWithEndlessBody(`${address}/api/admin/bulk-import`, {
      'content-type': 'application/json',
      'content-length': 8 * 1024 * 1024,
    });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'unauthorized' } });
    expect(Date.now() - started).toBeLessThan(2000);
    // A signed-in member without admin rights is refused the same way (403), also before the body.
    const member = await memberWithRole(app, 'free');
    const forbidden = await requestWithEndlessBody(`${address}/api/admin/bulk-import`, {
      'content-type': 'application/json',
      'content-length': 8 * 1024 * 1024,
      cookie: member.cookie,
    });
    expect(forbidden.status).toBe(403);
  });

  it('never runs a body parser for a refused request', async () => {
    let parsed = 0;
    const mini = await accessOnlyApp(app);
    mini.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
      parsed += 1;
      done(null, JSON.parse(String(body)));
    });
    mini.post('/api/admin/thing', { config: { access: { kind: 'admin' } } }, async () => ({ ok: true }));
    mini.post('/api/open-thing', { config: { access: { kind: 'public' } } }, async () => ({ ok: true }));
    const big = JSON.stringify({ data: 'x'.repeat(512 * 1024) });
    const refused = await mini.inject({ method: 'POST', url: '/api/admin/thing', headers: { 'content-type': 'application/json' }, payload: big });
    expect(refused.statusCode).toBe(401);
    expect(parsed).toBe(0);
    const open = await mini.inject({ method: 'POST', url: '/api/open-thing', headers: { 'content-type': 'application/json' }, payload: big });
    expect(open.statusCode).toBe(200);
    expect(parsed).toBe(1);
    await mini.close();
  });

  it('denies a route that has no policy (denial never defaults to open)', async () => {
    const admin = await memberWithRole(app, 'admin');
    expect(denial(undefined, null)?.statusCode).toBe(403);
    expect(denial(undefined, admin.user)?.statusCode).toBe(403);
    expect(denial({ kind: 'public' }, null)).toBeUndefined();
  });

  it('sets the Node server connection limits', () => {
    expect(app.server.headersTimeout).toBe(SERVER_LIMITS.headersTimeoutMs);
    expect(app.server.requestTimeout).toBe(SERVER_LIMITS.requestTimeoutMs);
    expect(app.server.keepAliveTimeout).toBe(SERVER_LIMITS.keepAliveTimeoutMs);
    expect(app.server.maxRequestsPerSocket).toBe(SERVER_LIMITS.maxRequestsPerSocket);
    // Requests must arrive whole in bounded time, but responses (live streams) are not cut.
    expect(app.server.headersTimeout).toBeLessThanOrEqual(app.server.requestTimeout);
  });

  it('writes exactly one canonical link, escaped, whatever the path holds', async () => {
    const res = await app.inject({ url: '/x$%26%20y=1' });
    expect(res.statusCode).toBe(404);
    const links = res.body.match(/<link rel="canonical"[^>]*>/g) ?? [];
    expect(links).toEqual(['<link rel="canonical" href="http://localhost:3000/x$&amp;%20y=1" />']);
    for (const url of ["/a$'b", '/a$`b', '/a$$b', '/a%22%3Cb%3E']) {
      const page = (await app.inject({ url })).body;
      expect(page.match(/rel="canonical"/g), url).toHaveLength(1);
      expect(page, url).not.toMatch(/href="[^"]*[<>][^"]*"/);
    }
  });

  it('answers invalid paths with 400 or 404, never 500', async () => {
    const paths = [
      '/%00',
      '/%00.js',
      '/assets/%00',
      '/%ff',
      '/%e0%80%af',
      '/%',
      '/a%0a%0db',
      '/api/%00',
      `/${'a'.repeat(20_000)}`,
      `/api/live-metadata/${'x'.repeat(500)}`,
    ];
    for (const url of paths) {
      const res = await app.inject({ url });
      expect([400, 404, 414, 431], `${url.slice(0, 40)}: ${res.statusCode}`).toContain(res.statusCode);
    }
  });

  it('guards /metrics: 401 anonymous, 403 members, 200 with the bearer token or as an admin', async () => {
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong-token-0123456789abcdef' } })).statusCode).toBe(401);
    expect((await app.inject({ url: '/metrics', headers: { authorization: METRICS_TOKEN } })).statusCode).toBe(401);
    const member = await memberWithRole(app, 'vip');
    expect((await app.inject({ url: '/metrics', headers: { cookie: member.cookie } })).statusCode).toBe(403);
    const byToken = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(byToken.statusCode).toBe(200);
    expect(byToken.body).toContain('dhr_http_request_duration_seconds');
    // The histogram counts each route under its pattern, and unmatched URLs as one series.
    const before = await histogramCount(app, 'GET', '/api/site-config', 200);
    await app.inject({ url: '/api/site-config?x=1' });
    await app.inject({ url: '/api/site-config' });
    await app.inject({ method: 'POST', url: '/api/no-such-route' });
    expect(await histogramCount(app, 'GET', '/api/site-config', 200)).toBe(before + 2);
    expect(await histogramCount(app, 'POST', 'unmatched', 404)).toBeGreaterThanOrEqual(1);
    const admin = await memberWithRole(app, 'admin');
    expect((await app.inject({ url: '/metrics', headers: { cookie: admin.cookie } })).statusCode).toBe(200);
  });

  it('with METRICS_TOKEN unset, no bearer token opens /metrics; an admin still may', async () => {
    const bare = await createTestApp();
    for (const authorization of ['Bearer ', 'Bearer undefined', `Bearer ${METRICS_TOKEN}`]) {
      expect((await bare.inject({ url: '/metrics', headers: { authorization } })).statusCode, authorization).toBe(401);
    }
    const admin = await memberWithRole(bare, 'admin');
    expect((await bare.inject({ url: '/metrics', headers: { cookie: admin.cookie } })).statusCode).toBe(200);
  });

  it('checks email length before the email pattern: crafted values are refused in milliseconds', async () => {
    const admin = await memberWithRole(app, 'admin');
    const crafted = `a@${'.'.repeat(40_000)} `;
    const header = 'email,firstName,lastName,subscriptionTier,subscriptionStatus,subscriptionExpiry,pledgeAmount,source';
    let started = Date.now();
    const imported = await app.inject({
      method: 'POST',
      url: '/api/admin/bulk-import',
      headers: { cookie: admin.cookie },
      payload: { csvContent: `${header}\n"${crafted}",,,free,active,,0,patreon` },
    });
    expect(Date.now() - started).toBeLessThan(500);
    expect(imported.statusCode).toBeLessThan(500);
    expect(JSON.stringify(imported.json())).toContain('invalid email');

    started = Date.now();
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: { cookie: admin.cookie },
      payload: { email: crafted, username: 'crafted' },
    });
    expect(Date.now() - started).toBeLessThan(500);
    expect(created.statusCode).toBe(400);

    started = Date.now();
    const login = await app.inject({ method: 'POST', url: '/api/auth/simple-login', payload: { email: crafted } });
    expect(Date.now() - started).toBeLessThan(500);
    expect(login.statusCode).toBe(400);
  });

  it('dedupes Patreon deliveries on the raw body alone and refuses documents older than the stored state', async () => {
    const email = `replay-${Date.now().toString(36)}@example.test`;
    const member = await createMember(app, { email });
    const post = (event: string, body: string) =>
      app.inject({
        method: 'POST',
        url: '/api/webhooks/patreon',
        headers: {
          'content-type': 'application/json',
          'x-patreon-event': event,
          'x-patreon-signature': createHmac('md5', PATREON_SECRET).update(body).digest('hex'),
        },
        payload: body,
      });
    const lastCharge = new Date(Date.now() - 10 * DAY_MS).toISOString();
    const current = JSON.stringify({ data: patreonMember({ email, status: 'active_patron', cents: 1000, lastChargeDate: lastCharge }) });
    expect((await post('members:pledge:create', current)).json()).toMatchObject({ applied: true });
    // The same signed body under another event name is the same delivery: it cannot end the membership.
    for (const event of ['members:delete', 'members:pledge:delete', 'members:update']) {
      expect((await post(event, current)).json(), event).toMatchObject({ applied: false, duplicate: true });
    }
    const statusOf = async () => (await app.database.db.select().from(users).where(eq(users.id, member.user.id)))[0]?.subscriptionStatus;
    expect(await statusOf()).toBe('active');

    // A document from before the stored last charge (a late or replayed delivery) changes nothing.
    const older = JSON.stringify({
      data: patreonMember({ email, status: 'former_patron', cents: 0, lastChargeDate: new Date(Date.now() - 40 * DAY_MS).toISOString() }),
    });
    expect((await post('members:update', older)).json()).toMatchObject({ applied: false, duplicate: false, stale: true });
    expect(await statusOf()).toBe('active');

    // A newer one applies.
    const newer = JSON.stringify({ data: patreonMember({ email, status: 'former_patron', cents: 0, lastChargeDate: lastCharge }) });
    expect((await post('members:delete', newer)).json()).toMatchObject({ applied: true });
    // The month paid for on the last charge is kept: cancelled with access until then.
    expect(await statusOf()).toBe('cancelled_with_access');
    const [row] = await app.database.db.select().from(users).where(eq(users.id, member.user.id));
    expect(row?.subscriptionExpiry?.getTime()).toBe(new Date(lastCharge).getTime() + PATREON_PERIOD_DAYS * DAY_MS);
  });
});
