import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RoutePolicy } from '../../src/server/plugins/access';
import { createMember, createTestApp, memberWithRole } from '../support/app';
import { createSession, SESSION_COOKIE } from '../../src/server/lib/sessions';

/**
 * The hostile-input suite (issue 9 item 8): every write route registered by the app, whoever added it,
 * gets hostile bodies built from its own schema, as a visitor and as an admin (so validation is really
 * reached). None may answer 5xx, and none may change a row.
 */

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Bookkeeping that requests legitimately write whatever their body: sessions (sign-out, last seen) and rate-limit counters. */
const BOOKKEEPING_TABLES = new Set(['sessions', 'rate_limits']);

interface Hostile {
  name: string;
  payload?: string | Buffer;
  contentType?: string;
}

/** The top-level field names of a zod object schema (none for other schemas or none at all). */
function fieldNames(schema: unknown): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape as Record<string, unknown>) : [];
}

/** Whether the route refuses a request without a body (its schema accepts neither nothing nor `{}`). */
function bodyRequired(schema: unknown): boolean {
  return schema instanceof z.ZodType && !schema.safeParse(undefined).success && !schema.safeParse({}).success;
}

function everyField(fields: string[], value: unknown): string {
  const names = fields.length ? fields : ['email', 'id', 'password'];
  return JSON.stringify(Object.fromEntries(names.map((f) => [f, value])));
}

function deepObject(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** At least 20 hostile bodies for a route whose body schema has `fields`. */
function hostileBodies(fields: string[]): Hostile[] {
  const json = 'application/json';
  const bodies: Hostile[] = [
    { name: 'empty body', contentType: json },
    { name: 'empty string', payload: '', contentType: json },
    { name: 'null', payload: 'null', contentType: json },
    { name: 'array', payload: '[]', contentType: json },
    { name: 'array of objects', payload: '[{}, {"__proto__": {}}]', contentType: json },
    { name: 'string', payload: '"hello"', contentType: json },
    { name: 'number', payload: '12345', contentType: json },
    { name: 'boolean', payload: 'true', contentType: json },
    { name: 'malformed JSON', payload: '{"a":', contentType: json },
    { name: 'deep array nesting', payload: '['.repeat(20_000) + ']'.repeat(20_000), contentType: json },
    { name: 'deep object nesting', payload: deepObject(5_000), contentType: json },
    { name: '__proto__ key', payload: '{"__proto__":{"isAdmin":true,"subscriptionTier":"vip"}}', contentType: json },
    { name: 'constructor key', payload: '{"constructor":{"prototype":{"isAdmin":true}}}', contentType: json },
    { name: 'prototype keys in every field', payload: everyField(fields, { __proto__: { isAdmin: true }, constructor: { prototype: {} } }), contentType: json },
    { name: 'invalid UTF-8 bytes', payload: Buffer.concat([Buffer.from('{"'), Buffer.from([0xff, 0xfe, 0xc0, 0xaf]), Buffer.from('":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]), contentType: json },
    { name: 'lone surrogates', payload: everyField(fields, '\ud800\udfff\ud800'), contentType: json },
    { name: 'NUL bytes in every field', payload: everyField(fields, 'a\u0000b@example.test\u0000'), contentType: json },
    { name: 'huge strings in every field', payload: everyField(fields, 'x'.repeat(200_000)), contentType: json },
    { name: 'huge email-like strings', payload: everyField(fields, `a@${'.'.repeat(50_000)} `), contentType: json },
    { name: 'arrays for every field', payload: everyField(fields, ['a', 1, null]), contentType: json },
    { name: 'objects for every field', payload: everyField(fields, { a: 1 }), contentType: json },
    { name: 'null for every field', payload: everyField(fields, null), contentType: json },
    { name: 'booleans for every field', payload: everyField(fields, true), contentType: json },
    { name: 'numbers out of range', payload: everyField(fields, 1e308).replace(/1e\+308/g, '1e999'), contentType: json },
    { name: 'negative numbers', payload: everyField(fields, -(2 ** 53) - 10), contentType: json },
    { name: 'unknown extra keys', payload: JSON.stringify({ isAdmin: true, subscriptionTier: 'vip', role: 'admin', userId: '00000000-0000-4000-8000-000000000000' }), contentType: json },
    { name: 'wrong content type (text/plain)', payload: everyField(fields, 'x'), contentType: 'text/plain' },
    { name: 'wrong content type (form)', payload: 'email=a%40b.test&isAdmin=true', contentType: 'application/x-www-form-urlencoded' },
    { name: 'wrong content type (multipart)', payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', contentType: 'multipart/form-data; boundary=x' },
    { name: 'over the body limit', payload: JSON.stringify({ csvContent: 'x'.repeat(10 * 1024 * 1024) }), contentType: json },
  ];
  // And one body per field: that field hostile, the others plausible.
  for (const f of fields) {
    const plausible = Object.fromEntries(fields.map((g) => [g, g.toLowerCase().includes('email') ? 'someone@example.test' : 'x']));
    bodies.push({ name: `${f} as a deep object`, payload: JSON.stringify({ ...plausible, [f]: JSON.parse(deepObject(200)) as unknown }), contentType: json });
  }
  return bodies;
}

/** Hostile query strings, appended to routes that read one. */
const HOSTILE_QUERIES = ['?limit=-1&channel=%00', '?limit=999999999999999999999', '?a[__proto__][isAdmin]=1&__proto__=x', `?channel=${'x'.repeat(5_000)}`, '?channel=%ff%fe'];

/** Concrete URLs for a route pattern: params get a real id, then hostile values. */
function urlsFor(url: string, victimId: string): string[] {
  const params = url.match(/:[A-Za-z_]+/g) ?? [];
  if (!params.length) return [url];
  const fill = (value: string) => url.replace(/:[A-Za-z_]+/g, (p) => (p === ':channel' ? 'dhr1' : value));
  const hostile = ['%00', 'x'.repeat(300), '..%2f..%2fetc', '00000000-0000-4000-8000-00000000000%00', '%ff'].map((v) =>
    url.replace(/:[A-Za-z_]+/g, v),
  );
  return [fill(victimId), ...hostile];
}

/** Row count and a content hash of every table, bookkeeping aside. */
async function snapshot(app: FastifyInstance): Promise<Record<string, string>> {
  const db = app.database.db;
  const tables = (await db.execute(sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`)) as unknown as { rows?: { table_name: string }[] } | { table_name: string }[];
  const names = (Array.isArray(tables) ? tables : (tables.rows ?? [])).map((r) => r.table_name).filter((n) => !BOOKKEEPING_TABLES.has(n));
  const out: Record<string, string> = {};
  for (const name of names) {
    const res = (await db.execute(sql.raw(`SELECT count(*)::text AS n, coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS h FROM "${name}" t`))) as unknown as
      | { rows?: { n: string; h: string }[] }
      | { n: string; h: string }[];
    const row = (Array.isArray(res) ? res : (res.rows ?? []))[0];
    out[name] = `${row?.n ?? '?'}:${row?.h ?? '?'}`;
  }
  return out;
}

describe('hostile input on every write route', async () => {
  const app = await createTestApp({ PATREON_WEBHOOK_SECRET: 'patreon-secret', BMC_WEBHOOK_SECRET: 'bmc-secret' });
  const admin = await memberWithRole(app, 'admin');
  // A member the admin routes' :id params point at, so a body that got through would change a real row.
  const victim = await createMember(app, { subscriptionTier: 'vip', subscriptionStatus: 'active' });
  const writeRoutes = app.routePolicies.filter((r) => WRITE_METHODS.has(r.method));

  it('finds the write routes and their schemas', () => {
    expect(writeRoutes.length).toBeGreaterThanOrEqual(15);
    expect(writeRoutes.filter((r) => r.schema.body).length).toBeGreaterThanOrEqual(10);
    expect(writeRoutes.filter((r) => fieldNames(r.schema.body).length > 0).length).toBeGreaterThanOrEqual(10);
    expect(writeRoutes.filter((r) => bodyRequired(r.schema.body)).length).toBeGreaterThanOrEqual(10);
  });

  async function attack(route: RoutePolicy, role: 'anonymous' | 'admin'): Promise<{ requests: number; failures: string[] }> {
    const failures: string[] = [];
    let requests = 0;
    const bodies = hostileBodies(fieldNames(route.schema.body));
    const urls = urlsFor(route.url, victim.user.id);
    const queries = route.schema.querystring ? ['', ...HOSTILE_QUERIES] : [''];
    for (const url of urls) {
      for (const query of queries) {
        for (const b of url === urls[0] && query === '' ? bodies : bodies.slice(0, 3)) {
          // A fresh session per request: a hostile body that signed the admin out must not disarm the rest.
          const cookie = role === 'admin' ? `${SESSION_COOKIE}=${await createSession(app.database.db, admin.user.id)}` : undefined;
          const options: InjectOptions = {
            method: route.method as 'POST',
            url: url + query,
            headers: { ...(b.contentType ? { 'content-type': b.contentType } : {}), ...(cookie ? { cookie } : {}) },
            ...(b.payload !== undefined ? { payload: b.payload } : {}),
          };
          const res = await app.inject(options);
          requests += 1;
          if (res.statusCode >= 500) failures.push(`${route.method} ${url.slice(0, 60)}${query.slice(0, 30)} [${b.name}] as ${role}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
    }
    return { requests, failures };
  }

  for (const route of writeRoutes) {
    it(`${route.method} ${route.url}: no hostile request answers 5xx or changes a row, as a visitor or an admin`, async () => {
      const failures: string[] = [];
      let total = 0;
      for (const role of ['anonymous', 'admin'] as const) {
        // A route that needs no body acts whatever the body (sign-out, start a sync): as an admin its
        // action is legitimate, so only the "never 5xx" half applies there.
        const checkRows = role === 'anonymous' || bodyRequired(route.schema.body);
        const before = checkRows ? await snapshot(app) : undefined;
        const result = await attack(route, role);
        total += result.requests;
        failures.push(...result.failures);
        if (before) {
          const after = await snapshot(app);
          for (const table of Object.keys(before)) {
            if (before[table] !== after[table]) failures.push(`${route.method} ${route.url} as ${role} changed table ${table}`);
          }
        }
      }
      expect(failures).toEqual([]);
      expect(total).toBeGreaterThanOrEqual(2 * 20);
    });
  }
});
