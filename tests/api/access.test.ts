import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { meetsTier } from '../../src/contracts/tier-policy';
import { access, describePolicy, type AccessPolicy, type RoutePolicy } from '../../src/server/plugins/access';
import { accessOnlyApp, createTestApp, memberWithRole, type Role, type TestMember } from '../support/app';

type SignedInRole = Exclude<Role, 'anonymous'>;
const ROLES: Role[] = ['anonymous', 'free', 'dhr1', 'dhr2', 'vip', 'expired-vip', 'admin'];
const ACCESS_CODES = new Set(['unauthorized', 'admin_required', 'tier_required', 'invalid_media_token']);

/** What the one access hook must answer for `role` on a route with `policy`. */
function expected(policy: AccessPolicy, role: Role, m: TestMember | undefined): 'allow' | 401 | 403 {
  if (policy.kind === 'public') return 'allow';
  // A media link is the token and the session that asked for it: without both, 403 whoever asks.
  if (policy.kind === 'mediaLink') return 403;
  if (role === 'anonymous' || !m) return 401;
  if (policy.kind === 'member') return 'allow';
  if (policy.kind === 'admin') return m.user.isAdmin ? 'allow' : 403;
  return meetsTier(m.user, policy.tier) ? 'allow' : 403;
}

/** A concrete URL for a route pattern: params get a well-formed id, wildcards a plain segment. */
function concrete(url: string): string {
  return url
    .replace(/:channel\b/g, 'dhr1')
    .replace(/:[A-Za-z_]+/g, '00000000-0000-4000-8000-000000000000')
    .replace(/\*/g, 'x');
}

function accessCode(res: LightMyRequestResponse): string | undefined {
  try {
    return (JSON.parse(res.body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

describe('the one access mechanism', async () => {
  const app = await createTestApp();
  const members: Partial<Record<SignedInRole, TestMember>> = {};
  for (const role of ROLES) if (role !== 'anonymous') members[role] = await memberWithRole(app, role);

  it('every registered route declares a policy, and each policy kind is in use', () => {
    expect(app.routePolicies.length).toBeGreaterThan(10);
    for (const r of app.routePolicies) expect(['public', 'member', 'admin', 'tier', 'mediaLink'], `${r.method} ${r.url}`).toContain(r.access.kind);
    const kinds = new Set(app.routePolicies.map((r) => r.access.kind));
    for (const k of ['public', 'member', 'admin']) expect(kinds, k).toContain(k);
  });

  it('refuses at registration a route without a policy', async () => {
    const mini = await accessOnlyApp(app);
    expect(() => mini.get('/api/no-policy-here', async () => ({}))).toThrow(/declares no access policy/);
    expect(() => mini.get('/api/with-policy', { config: { access: access.public } }, async () => ({}))).not.toThrow();
    await mini.close();
  });

  it('denies every route to roles without access: 401 anonymous, 403 signed in, JSON envelope', async () => {
    const failures: string[] = [];
    for (const r of app.routePolicies) {
      for (const role of ROLES) {
        const m = role === 'anonymous' ? undefined : members[role];
        const want = expected(r.access, role, m);
        if (want === 'allow') continue;
        // Denied requests never reach validation or the handler, so any method is safe to send.
        const res = await app.inject({ method: r.method as 'GET', url: concrete(r.url), headers: m ? { cookie: m.cookie } : {} });
        const code = accessCode(res);
        if (res.statusCode !== want || !code || !ACCESS_CODES.has(code) || !String(res.headers['content-type'] ?? '').includes('application/json')) {
          failures.push(`${r.method} ${r.url} [${describePolicy(r.access)}] as ${role}: ${res.statusCode} ${code ?? res.body.slice(0, 60)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets roles with access through the hook on every GET route', async () => {
    const failures: string[] = [];
    const gets = app.routePolicies.filter((r: RoutePolicy) => r.method === 'GET');
    for (const r of gets) {
      for (const role of ROLES) {
        const m = role === 'anonymous' ? undefined : members[role];
        if (expected(r.access, role, m) !== 'allow') continue;
        // As a stream: live event streams answer their head at once and never end.
        const res = await app.inject({
          method: 'GET',
          url: concrete(r.url),
          headers: m ? { cookie: m.cookie } : {},
          payloadAsStream: true,
        });
        const stream = res.stream();
        let body = '';
        if (String(res.headers['content-type'] ?? '').includes('text/event-stream')) stream.destroy();
        else for await (const chunk of stream) body += String(chunk);
        let code: string | undefined;
        try {
          code = (JSON.parse(body) as { error?: { code?: string } }).error?.code;
        } catch {
          code = undefined;
        }
        if ((res.statusCode === 401 || res.statusCode === 403) && code && ACCESS_CODES.has(code)) {
          failures.push(`${r.url} [${describePolicy(r.access)}] as ${role}: ${res.statusCode} ${code}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('checks the role matrix on known routes of each kind', async () => {
    const matrix: [string, Record<Role, number>][] = [
      ['/api/user/permissions', { anonymous: 200, free: 200, dhr1: 200, dhr2: 200, vip: 200, 'expired-vip': 200, admin: 200 }],
      ['/api/auth/me', { anonymous: 401, free: 200, dhr1: 200, dhr2: 200, vip: 200, 'expired-vip': 200, admin: 200 }],
      ['/api/admin/session-debug', { anonymous: 401, free: 403, dhr1: 403, dhr2: 403, vip: 403, 'expired-vip': 403, admin: 200 }],
    ];
    for (const [url, byRole] of matrix) {
      for (const role of ROLES) {
        const m = role === 'anonymous' ? undefined : members[role];
        const res = await app.inject({ url, headers: m ? { cookie: m.cookie } : {} });
        expect(res.statusCode, `${url} as ${role}`).toBe(byRole[role]);
      }
    }
  });

  it('applies the tier ladder to tier routes: free < dhr1 < dhr2 < vip, expired counts as free, admins pass', async () => {
    // Real tier routes of other features may not cover every tier, so a test-only app with the real
    // access plugin carries one route per tier (the one place a test registers its own routes).
    const mini = await accessOnlyApp(app);
    for (const tier of ['dhr1', 'dhr2', 'vip'] as const) {
      mini.get(`/api/test-tier/${tier}`, { config: { access: access.tier(tier) } }, async () => ({ ok: true }));
    }
    await mini.ready();
    const table: Record<string, Record<Role, number>> = {
      dhr1: { anonymous: 401, free: 403, dhr1: 200, dhr2: 200, vip: 200, 'expired-vip': 403, admin: 200 },
      dhr2: { anonymous: 401, free: 403, dhr1: 403, dhr2: 200, vip: 200, 'expired-vip': 403, admin: 200 },
      vip: { anonymous: 401, free: 403, dhr1: 403, dhr2: 403, vip: 200, 'expired-vip': 403, admin: 200 },
    };
    for (const [tier, byRole] of Object.entries(table)) {
      for (const role of ROLES) {
        const m = role === 'anonymous' ? undefined : members[role];
        const res = await mini.inject({ url: `/api/test-tier/${tier}`, headers: m ? { cookie: m.cookie } : {} });
        expect(res.statusCode, `${tier} as ${role}`).toBe(byRole[role]);
        if (res.statusCode === 403) expect(res.json()).toMatchObject({ error: { code: 'tier_required' } });
      }
    }
    await mini.close();

    // And the real VIP route of the tracks feature follows the same ladder.
    for (const role of ROLES) {
      const m = role === 'anonymous' ? undefined : members[role];
      const res = await app.inject({ url: '/api/vip/track-history', headers: m ? { cookie: m.cookie } : {} });
      const want = table.vip?.[role] ?? 0;
      if (want === 200) expect(res.statusCode, role).not.toBeOneOf([401, 403]);
      else expect(res.statusCode, role).toBe(want);
    }
  });
});
