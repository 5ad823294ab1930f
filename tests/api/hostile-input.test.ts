import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RoutePolicy } from '../../src/server/plugins/access';
import { createMember, createTestApp, memberWithRole } from '../support/app';
import { HOSTILE_VALUES, objectFields, sampleValue } from '../support/schema-samples';
import { createSession, SESSION_COOKIE } from '../../src/server/lib/sessions';

/**
 * The hostile-input suite: every write route registered by the app,
 * whoever added it, gets hostile bodies built from its own schema, and then each of 30+ hostile values
 * in each field of its body, query, params and multipart fields (the other fields good, so the hostile
 * one is reached), as a visitor, a member and an admin. None may answer 5xx, and none may change a row.
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
    {
      name: 'invalid UTF-8 bytes',
      payload: Buffer.concat([
        Buffer.from('{"'),
        Buffer.from([0xff, 0xfe, 0xc0, 0xaf]),
        Buffer.from('":"'),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('"}'),
      ]),
      contentType: json,
    },
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
    {
      name: 'unknown extra keys',
      payload: JSON.stringify({ isAdmin: true, subscriptionTier: 'vip', role: 'admin', userId: '00000000-0000-4000-8000-000000000000' }),
      contentType: json,
    },
    { name: 'wrong content type (text/plain)', payload: everyField(fields, 'x'), contentType: 'text/plain' },
    { name: 'wrong content type (form)', payload: 'email=a%40b.test&isAdmin=true', contentType: 'application/x-www-form-urlencoded' },
    {
      name: 'wrong content type (multipart)',
      payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
      contentType: 'multipart/form-data; boundary=x',
    },
    { name: 'over the body limit', payload: JSON.stringify({ csvContent: 'x'.repeat(10 * 1024 * 1024) }), contentType: json },
  ];
  // And one body per field: that field hostile, the others plausible.
  for (const f of fields) {
    const plausible = Object.fromEntries(fields.map((g) => [g, g.toLowerCase().includes('email') ? 'someone@example.test' : 'x']));
    bodies.push({ name: `${f} as a deep object`, payload: JSON.stringify({ ...plausible, [f]: JSON.parse(deepObject(200)) as unknown }), contentType: json });
  }
  return bodies;
}

/** Row count and a content hash of every table, bookkeeping aside. */
async function snapshot(app: FastifyInstance): Promise<Record<string, string>> {
  const db = app.database.db;
  const tables = (await db.execute(
    sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  )) as unknown as { rows?: { table_name: string }[] } | { table_name: string }[];
  const names = (Array.isArray(tables) ? tables : (tables.rows ?? [])).map((r) => r.table_name).filter((n) => !BOOKKEEPING_TABLES.has(n));
  const out: Record<string, string> = {};
  for (const name of names) {
    const res = (await db.execute(
      sql.raw(`SELECT count(*)::text AS n, coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS h FROM "${name}" t`),
    )) as unknown as { rows?: { n: string; h: string }[] } | { n: string; h: string }[];
    const row = (Array.isArray(res) ? res : (res.rows ?? []))[0];
    out[name] = `${row?.n ?? '?'}:${row?.h ?? '?'}`;
  }
  return out;
}

type Role = 'visitor' | 'member' | 'admin';
const ROLES: Role[] = ['visitor', 'member', 'admin'];

/** A hostile value as it travels in a URL (params and queries are strings). */
function inUrl(value: unknown): string {
  const text = typeof value === 'string' ? value.slice(0, 5_000) : JSON.stringify(value);
  // A lone surrogate cannot be encoded as UTF-8: send the bytes of one (invalid UTF-8) instead.
  return text
    .split(/([\uD800-\uDFFF])/)
    .map((part) => (/^[\uD800-\uDFFF]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
    .join('');
}

/** A multipart body of text fields only. */
function multipartBody(fields: Record<string, unknown>): { payload: string; contentType: string } {
  const boundary = 'hostile-boundary';
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${typeof v === 'string' ? v : JSON.stringify(v)}\r\n`,
  );
  return { payload: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** One request of the attack: method, URL and body. */
interface Shot {
  url: string;
  payload?: string | Buffer;
  contentType?: string;
  name: string;
}

/**
 * Every shot for a route: the whole-body hostile list, then each hostile value in each field of the
 * body, the query, the params and the multipart fields, the other fields holding values their
 * schemas accept (so the hostile one is what the route meets).
 */
function perFieldShots(route: RoutePolicy, victimId: string): Shot[] {
  const json = 'application/json';
  const paramNames = (route.url.match(/:[A-Za-z_]+/g) ?? []).map((p) => p.slice(1));
  const goodParams = Object.fromEntries(paramNames.map((p) => [p, p === 'channel' ? 'dhr1' : victimId]));
  const path = (params: Record<string, string>) => route.url.replace(/:([A-Za-z_]+)/g, (_, p: string) => encodeURIComponent(params[p] ?? ''));
  const goodQuery = (sampleValue(route.schema.querystring)?.value ?? {}) as Record<string, unknown>;
  const query = (q: Record<string, unknown>) => {
    const s = Object.entries(q)
      .map(([k, v]) => `${encodeURIComponent(k)}=${inUrl(v)}`)
      .join('&');
    return s ? `?${s}` : '';
  };
  const goodBody = sampleValue(route.schema.body)?.value as Record<string, unknown> | undefined;
  const bodyOf = (b: Record<string, unknown> | undefined) => (b === undefined ? {} : { payload: JSON.stringify(b), contentType: json });
  const shots: Shot[] = [];
  for (const [field, schema] of Object.entries(objectFields(route.schema.body))) {
    const values =
      schema instanceof z.ZodArray || (schema._zod.def as { innerType?: unknown }).innerType instanceof z.ZodArray
        ? [...HOSTILE_VALUES, ...HOSTILE_VALUES.filter((v) => typeof v === 'string').map((v) => [v])]
        : HOSTILE_VALUES;
    for (const v of values) shots.push({ url: path(goodParams) + query(goodQuery), ...bodyOf({ ...goodBody, [field]: v }), name: `body ${field}` });
  }
  for (const field of Object.keys(objectFields(route.schema.querystring))) {
    for (const v of HOSTILE_VALUES) shots.push({ url: path(goodParams) + query({ ...goodQuery, [field]: v }), ...bodyOf(goodBody), name: `query ${field}` });
  }
  for (const p of paramNames) {
    for (const v of [...HOSTILE_VALUES, '..%2f..%2fetc', '%ff']) {
      const raw = typeof v === 'string' && v.startsWith('..') ? v : inUrl(v);
      shots.push({
        url: route.url.replace(/:([A-Za-z_]+)/g, (_, q: string) => (q === p ? raw : encodeURIComponent(goodParams[q] ?? ''))) + query(goodQuery),
        ...bodyOf(goodBody),
        name: `param ${p}`,
      });
    }
  }
  const goodFields = (sampleValue(route.schema.multipart)?.value ?? {}) as Record<string, unknown>;
  for (const field of Object.keys(objectFields(route.schema.multipart))) {
    for (const v of HOSTILE_VALUES) shots.push({ url: path(goodParams), ...multipartBody({ ...goodFields, [field]: v }), name: `multipart ${field}` });
  }
  return shots;
}

describe('hostile input on every write route', async () => {
  // Every level logged and kept: the run's log must name none of the addresses it used.
  const logLines: string[] = [];
  const app = await createTestApp(
    { PATREON_WEBHOOK_SECRET: 'patreon-secret', BMC_WEBHOOK_SECRET: 'bmc-secret', LOG_LEVEL: 'trace' },
    {},
    { logger: true, logStream: { write: (line: string) => void logLines.push(line) } },
  );
  const admin = await memberWithRole(app, 'admin');
  const member = await memberWithRole(app, 'vip');
  // A member the :id params point at, so a request that got through would change a real row.
  const victim = await createMember(app, { subscriptionTier: 'vip', subscriptionStatus: 'active' });
  const writeRoutes = app.routePolicies.filter((r) => WRITE_METHODS.has(r.method));
  const usedEmails = [admin.user.email, member.user.email, victim.user.email, 'someone@example.test', '@example.test'];

  it('finds the write routes and their schemas', () => {
    expect(writeRoutes.length).toBeGreaterThanOrEqual(15);
    expect(writeRoutes.filter((r) => r.schema.body).length).toBeGreaterThanOrEqual(10);
    expect(writeRoutes.filter((r) => fieldNames(r.schema.body).length > 0).length).toBeGreaterThanOrEqual(10);
    expect(writeRoutes.filter((r) => bodyRequired(r.schema.body)).length).toBeGreaterThanOrEqual(10);
    expect(writeRoutes.filter((r) => r.schema.multipart).length).toBeGreaterThanOrEqual(1);
    expect(HOSTILE_VALUES.length).toBeGreaterThanOrEqual(30);
  });

  async function cookieFor(role: Role): Promise<string | undefined> {
    if (role === 'visitor') return undefined;
    return `${SESSION_COOKIE}=${await createSession(app.database.db, (role === 'admin' ? admin : member).user.id)}`;
  }

  async function fire(route: RoutePolicy, role: Role, shots: Shot[]): Promise<{ requests: number; failures: string[] }> {
    const failures: string[] = [];
    let cookie = await cookieFor(role);
    for (const shot of shots) {
      const options: InjectOptions = {
        method: route.method as 'POST',
        url: shot.url,
        headers: { ...(shot.contentType ? { 'content-type': shot.contentType } : {}), ...(cookie ? { cookie } : {}) },
        ...(shot.payload !== undefined ? { payload: shot.payload } : {}),
      };
      const res = await app.inject(options);
      if (res.statusCode >= 500)
        failures.push(`${route.method} ${shot.url.slice(0, 60)} [${shot.name}] as ${role}: ${res.statusCode} ${res.body.slice(0, 120)}`);
      // A request that signed the session out must not disarm the rest.
      if (res.headers['set-cookie']) cookie = await cookieFor(role);
    }
    return { requests: shots.length, failures };
  }

  /** The whole-body list, on the route's URL with good params and then hostile ones. */
  function wholeBodyShots(route: RoutePolicy): Shot[] {
    const bodies = hostileBodies(fieldNames(route.schema.body));
    const good = route.url.replace(/:([A-Za-z_]+)/g, (_, p: string) => (p === 'channel' ? 'dhr1' : victim.user.id));
    const shots: Shot[] = bodies.map((b) => ({ url: good, payload: b.payload, contentType: b.contentType, name: b.name }));
    if (route.url.includes(':')) {
      for (const v of ['%00', 'x'.repeat(300), '..%2f..%2fetc', '00000000-0000-4000-8000-00000000000%00', '%ff']) {
        shots.push(
          ...bodies.slice(0, 3).map((b) => ({
            url: route.url.replace(/:[A-Za-z_]+/g, v),
            payload: b.payload,
            contentType: b.contentType,
            name: `${b.name}, param ${v.slice(0, 20)}`,
          })),
        );
      }
    }
    return shots;
  }

  async function unchanged(label: string, run: () => Promise<{ requests: number; failures: string[] }>, checkRows: boolean) {
    const before = checkRows ? await snapshot(app) : undefined;
    const result = await run();
    if (before) {
      const after = await snapshot(app);
      for (const table of Object.keys(before)) if (before[table] !== after[table]) result.failures.push(`${label} changed table ${table}`);
    }
    return result;
  }

  for (const route of writeRoutes) {
    it(`${route.method} ${route.url}: no hostile request answers 5xx or changes a row, as a visitor, a member or an admin`, async () => {
      const failures: string[] = [];
      let total = 0;
      const fieldShots = perFieldShots(route, victim.user.id);
      for (const role of ROLES) {
        // A route that needs no body acts whatever the body (sign-out, start a sync): for whoever may
        // use it, only the "never 5xx" half of the whole-body list applies.
        const wholeRows = role === 'visitor' || bodyRequired(route.schema.body);
        const whole = await unchanged(`${route.method} ${route.url} as ${role} (whole bodies)`, () => fire(route, role, wholeBodyShots(route)), wholeRows);
        const fields = await unchanged(`${route.method} ${route.url} as ${role} (one hostile field)`, () => fire(route, role, fieldShots), true);
        total += whole.requests + fields.requests;
        failures.push(...whole.failures, ...fields.failures);
      }
      expect(failures).toEqual([]);
      expect(total).toBeGreaterThanOrEqual(3 * 20);
    });
  }

  it('wrote no address it used, nor a bound parameter, into the log at any level', async () => {
    await app.mailer.idle();
    const log = logLines.join('');
    expect(logLines.length).toBeGreaterThan(100);
    for (const email of usedEmails) expect(log.includes(email), email).toBe(false);
    expect(log).not.toMatch(/params:/);
  });
});
