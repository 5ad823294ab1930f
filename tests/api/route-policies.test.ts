import { describe, expect, it } from 'vitest';
import { describePolicy } from '../../src/server/plugins/access';
import { createTestApp, memberWithRole } from '../support/app';
import { ADMIN_PATH_EXCEPTIONS, ROUTE_POLICIES } from './route-policies';

const byKey = (a: readonly [string, string, string], b: readonly [string, string, string]) => `${a[1]} ${a[0]}`.localeCompare(`${b[1]} ${b[0]}`);

/** A concrete URL for a route pattern: params get a well-formed value, wildcards a plain segment. */
function concrete(url: string): string {
  return url
    .replace(/:channel\b/g, 'dhr1')
    .replace(/:[A-Za-z_]+/g, '00000000-0000-4000-8000-000000000000')
    .replace(/\*/g, 'about');
}

describe('route policies', async () => {
  const app = await createTestApp();
  const registered = app.routePolicies.map((r) => [r.method, r.url, describePolicy(r.access)] as const);

  it('match the reviewed list in tests/api/route-policies.ts (update it with the route, in the same change)', () => {
    expect([...registered].sort(byKey)).toEqual([...ROUTE_POLICIES].sort(byKey));
  });

  it('keep every /api/admin/* route admin-only, except the named sign-in routes', () => {
    const open = registered
      .filter(([, url, policy]) => url.startsWith('/api/admin/') && !policy.startsWith('admin'))
      .map(([method, url]) => `${method} ${url}`);
    expect(open.sort()).toEqual([...ADMIN_PATH_EXCEPTIONS].sort());
  });

  /**
   * Whether a visitor gets the member's answer. An answer that moves with the clock (the now-playing
   * `elapsed`, rebuilt once a second) may change between the two requests on a busy machine: a
   * difference counts only if it is there again when both are asked once more, back to back.
   */
  async function sameForVisitor(url: string, cookie: string, memberBody: string): Promise<boolean> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const body = attempt === 0 ? memberBody : (await app.inject({ method: 'GET', url, headers: { cookie } })).body;
      if ((await app.inject({ method: 'GET', url })).body === body) return true;
    }
    return false;
  }

  it('answers every GET route with no-store to a signed-in member, unless the answer is the same for everyone', async () => {
    const failures: string[] = [];
    for (const role of ['free', 'vip', 'admin'] as const) {
      const m = await memberWithRole(app, role);
      for (const r of app.routePolicies.filter((p) => p.method === 'GET')) {
        const url = concrete(r.url);
        const res = await app.inject({ method: 'GET', url, headers: { cookie: m.cookie }, payloadAsStream: true });
        const stream = res.stream();
        let body = '';
        if (String(res.headers['content-type'] ?? '').includes('text/event-stream')) stream.destroy();
        else for await (const chunk of stream) body += String(chunk);
        const cacheControl = String(res.headers['cache-control'] ?? '');
        if (cacheControl.includes('no-store')) continue;
        // A response that declares itself shareable (public caching, or a route that never reads the
        // session) must be exactly what a visitor gets.
        if ((cacheControl.includes('public') || r.sharedAnswer) && (await sameForVisitor(url, m.cookie, body))) continue;
        failures.push(`${r.url} as ${role}: cache-control '${cacheControl}'`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('declares a shared answer only on public routes', () => {
    expect(app.routePolicies.filter((r) => r.sharedAnswer && r.access.kind !== 'public')).toEqual([]);
  });

  it('answers member-only routes with no-store even when refused', async () => {
    for (const url of ['/api/auth/me', '/api/admin/users', '/api/vip/track-history']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(401);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('answers writes that return a member (registration) with no-store', async () => {
    const t = Date.now().toString(36);
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: `ns-${t}@example.test`, username: `ns${t}`, password: 'a-long-enough-password' },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
