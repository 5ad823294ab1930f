import { describe, expect, it } from 'vitest';
import { access } from '../../src/server/plugins/access';
import { accessOnlyApp, createTestApp, memberWithRole, readMetrics } from '../support/app';

describe('foundation API', async () => {
  const app = await createTestApp();

  it('answers health once the database answers', async () => {
    const res = await app.inject('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('answers unknown API paths with the JSON 404 envelope, never HTML', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await app.inject({ method, url: '/api/nope' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      const body = res.json();
      expect(body.error.code).toBe('not_found');
      expect(body.message).toBe(body.error.message);
    }
  });

  it('lists the seeded channels from the cache', async () => {
    const res = await app.inject('/api/channels');
    expect(res.statusCode).toBe(200);
    const list = res.json() as { id: string; name: string }[];
    expect(list.map((c) => [c.id, c.name])).toEqual([
      ['dhr1', 'DHR1 Premium'],
      ['dhr2', 'DHR2 Exclusive'],
    ]);
  });

  it('refuses writes whose Origin names another site', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/health', headers: { origin: 'https://evil.example' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('cross_site');
    const same = await app.inject({ method: 'POST', url: '/api/nope', headers: { origin: 'http://localhost:3000' } });
    expect(same.statusCode).toBe(404);
  });

  it('serves Prometheus metrics with the HTTP histogram by route', async () => {
    await app.inject('/api/health');
    const res = await readMetrics(app);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('dhr_http_request_duration_seconds_bucket');
    expect(res.body).toContain('route="/api/health"');
    expect(res.body).toContain('dhr_process_cpu_user_seconds_total');
  });

  it('sets security headers with a CSP on pages, and the data headers on API replies', async () => {
    const res = await app.inject('/');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const api = await app.inject('/api/channels');
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    expect(api.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(api.headers['content-security-policy']).toBeUndefined();
  });

  it('compresses large replies and sends the small public reads as they are', async () => {
    const gzip = { 'accept-encoding': 'gzip' };
    // The Prometheus text is several kilobytes: over the threshold, so compressed.
    const admin = await memberWithRole(app, 'admin');
    const big = await app.inject({ url: '/metrics', headers: { ...gzip, cookie: admin.cookie } });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('gzip');
    // The constant public reads skip negotiation and keep their exact bytes and length.
    for (const url of ['/api/health', '/api/channels', '/api/live-metadata']) {
      const res = await app.inject({ url, headers: gzip });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    }
  });

  it('serves app HTML for page routes and 404 for unknown pages', async () => {
    for (const url of ['/', '/dhr1', '/player/dhr2', '/admin/track-history', '/vip/track-history']) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
    }
    expect((await app.inject('/definitely-not-a-page')).statusCode).toBe(404);
  });

  it('gives every registered route an access policy', async () => {
    const kinds = new Set(['public', 'member', 'tier', 'admin', 'mediaLink']);
    expect(app.routePolicies.length).toBeGreaterThan(3);
    for (const r of app.routePolicies) expect(kinds.has(r.access.kind), `${r.method} ${r.url}`).toBe(true);
    const policyOf = (method: string, url: string) => app.routePolicies.find((r) => r.method === method && r.url === url)?.access;
    expect(policyOf('GET', '/api/health')).toEqual({ kind: 'public' });
    expect(policyOf('GET', '/api/auth/me')).toEqual({ kind: 'member' });
    expect(policyOf('GET', '/api/admin/users')).toEqual({ kind: 'admin' });
    // A route that declares no policy cannot be registered at all.
    const bare = await accessOnlyApp(app);
    expect(() => bare.get('/api/unguarded', async () => ({ ok: true }))).toThrow(/GET \/api\/unguarded declares no access policy/);
    bare.get('/api/guarded', { config: { access: access.public } }, async () => ({ ok: true }));
    expect(bare.routePolicies).toEqual([expect.objectContaining({ method: 'GET', url: '/api/guarded', access: { kind: 'public' } })]);
    await bare.close();
  });

  it('resolves the session cookie of a member', async () => {
    const member = await memberWithRole(app, 'dhr1');
    const me = await app.inject({ url: '/api/auth/me', headers: { cookie: member.cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: member.user.id, email: member.user.email, subscriptionTier: 'dhr1' });
    // Without the cookie, or with one the store does not know, nobody is signed in.
    expect((await app.inject('/api/auth/me')).statusCode).toBe(401);
    const forged = await app.inject({ url: '/api/auth/me', headers: { cookie: `${member.cookie.slice(0, -2)}xx` } });
    expect(forged.statusCode).toBe(401);
  });
});
