import { parse } from 'csv-parse/sync';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BULK_IMPORT_COLUMNS, MEMBERS_EXPORT_EXTRA_COLUMNS } from '../../src/contracts/admin';
import { users } from '../../src/server/db/schema';
import { csvCell, EXPORT_PAGE_SIZE } from '../../src/server/modules/admin/members-export-service';
import { createMember, createTestApp, memberWithRole, type TestMember } from '../support/app';

const exportCsv = (app: FastifyInstance, who: TestMember | undefined, query = '') =>
  app.inject({ method: 'GET', url: `/api/admin/users/export.csv${query}`, headers: who ? { cookie: who.cookie } : {} });

const rowsOf = (csv: string) => parse(csv, { bom: true, columns: true, skip_empty_lines: true }) as Record<string, string>[];

describe('csvCell', () => {
  it('prefixes formula starts with a quote and quotes per RFC 4180', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    for (const start of ['+', '-', '@', '\t', '\r']) expect(csvCell(`${start}1`).replace(/^"/, '').startsWith(`'${start}`)).toBe(true);
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
  });
});

describe('members export (GET /api/admin/users/export.csv)', async () => {
  const app = await createTestApp();
  const admin = await memberWithRole(app, 'admin');
  const vip = await createMember(app, {
    email: 'vip-export@example.test',
    firstName: '=HYPERLINK("http://evil.example","click")',
    lastName: 'O"Neill, Jr',
    subscriptionTier: 'vip',
    subscriptionStatus: 'active',
    subscriptionSource: 'patreon',
    pledgeAmountCents: 1050,
    subscriptionExpiry: new Date('2027-03-31T22:59:59.999Z'),
  });
  const dhr1 = await createMember(app, {
    email: 'dhr1-export@example.test',
    subscriptionTier: 'dhr1',
    subscriptionStatus: 'cancelled',
    subscriptionSource: 'buymeacoffee',
  });

  it('answers CSV as an attachment named with the date, not cached, with the import columns first', async () => {
    const res = await exportCsv(app, admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="dhr-members-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const [header] = res.body.split('\r\n');
    // Excel's UTF-8 mark first (by default), then the header.
    expect(header).toBe(`\uFEFF${[...BULK_IMPORT_COLUMNS, ...MEMBERS_EXPORT_EXTRA_COLUMNS].join(',')}`);
    const plain = await exportCsv(app, admin, '?bom=false');
    expect(plain.body.split('\r\n')[0]).toBe([...BULK_IMPORT_COLUMNS, ...MEMBERS_EXPORT_EXTRA_COLUMNS].join(','));
    expect(plain.body.slice(plain.body.indexOf('\r\n'))).toBe(res.body.slice(res.body.indexOf('\r\n')));
    expect((await exportCsv(app, admin, '?bom=maybe')).statusCode).toBe(400);
    const rows = rowsOf(res.body);
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => r.email === vip.user.email)).toEqual({
      email: vip.user.email,
      firstName: `'=HYPERLINK("http://evil.example","click")`,
      lastName: 'O"Neill, Jr',
      subscriptionTier: 'VIP',
      subscriptionStatus: 'active',
      subscriptionExpiry: '2027-03-31',
      pledgeAmount: '10.50',
      source: 'patreon',
      username: vip.user.username,
      isAdmin: 'false',
      createdAt: vip.user.createdAt.toISOString(),
      lastLoginAt: '',
    });
    // No cell a spreadsheet would run: every raw line's cells start safely.
    expect(res.body).not.toMatch(/(^|,|")=HYPERLINK/m);
  });

  it('honours the list filters: tier, status and search', async () => {
    expect(rowsOf((await exportCsv(app, admin, '?tier=vip')).body).map((r) => r.email)).toEqual([vip.user.email]);
    expect(rowsOf((await exportCsv(app, admin, '?status=cancelled')).body).map((r) => r.email)).toEqual([dhr1.user.email]);
    expect(rowsOf((await exportCsv(app, admin, '?search=dhr1-export')).body).map((r) => r.email)).toEqual([dhr1.user.email]);
    expect(rowsOf((await exportCsv(app, admin, '?search=nobody-matches-this')).body)).toEqual([]);
    expect(rowsOf((await exportCsv(app, admin, '?tier=&status=')).body)).toHaveLength(3);
  });

  it('refuses bad filters with a 400, and anyone but an admin', async () => {
    expect((await exportCsv(app, admin, '?tier=gold')).statusCode).toBe(400);
    expect((await exportCsv(app, admin, `?search=${'x'.repeat(201)}`)).statusCode).toBe(400);
    expect((await exportCsv(app, undefined)).statusCode).toBe(401);
    expect((await exportCsv(app, vip)).statusCode).toBe(403);
  });

  it('reads back through the bulk import: the same members, unchanged', async () => {
    const csv = (await exportCsv(app, admin, '?search=-export@')).body;
    const res = await app.inject({ method: 'POST', url: '/api/admin/bulk-import', headers: { cookie: admin.cookie }, payload: { csvContent: csv } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ imported: 0, errors: [] });
    expect(rowsOf((await exportCsv(app, admin, '?search=-export@')).body)).toEqual(rowsOf(csv));
  });

  it('exports 5,000 members completely, across keyset pages, each once, newest first', async () => {
    const db = app.database.db;
    // Many members share one created_at: the keyset must still neither skip nor repeat any.
    const at = new Date();
    const batch = Array.from({ length: 5000 }, (_, i) => ({
      email: `bulk-${i}@example.test`,
      username: `bulk${i}`,
      createdAt: new Date(at.getTime() - Math.floor(i / 7) * 1000),
    }));
    for (let i = 0; i < batch.length; i += 1000) await db.insert(users).values(batch.slice(i, i + 1000));
    expect(batch.length).toBeGreaterThan(4 * EXPORT_PAGE_SIZE);
    const res = await exportCsv(app, admin);
    expect(res.statusCode).toBe(200);
    const rows = rowsOf(res.body);
    expect(rows).toHaveLength(5003);
    expect(new Set(rows.map((r) => r.email)).size).toBe(5003);
    const times = rows.map((r) => Date.parse(r.createdAt ?? ''));
    expect(times.every((t, i) => i === 0 || t <= (times[i - 1] ?? Infinity))).toBe(true);
    expect(rowsOf((await exportCsv(app, admin, '?search=bulk-4999@')).body).map((r) => r.username)).toEqual(['bulk4999']);
  });
});

describe('export → import round trip', async () => {
  const app = await createTestApp();
  const admin = await memberWithRole(app, 'admin');
  const db = app.database.db;
  const as = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: { cookie: admin.cookie }, payload: payload as object });
  // Names a spreadsheet would run, expiries at any time of day, free members, ended and lapsed ones.
  const starts = ['=1+1', '+353 1', '-Dash', '@handle'];
  for (const [i, first] of starts.entries()) {
    await createMember(app, {
      email: `formula${i}@example.test`,
      firstName: first,
      lastName: `${starts[(i + 1) % 4]}x`,
      subscriptionTier: 'dhr2',
      subscriptionStatus: 'active',
      subscriptionSource: 'buymeacoffee',
      pledgeAmountCents: 500,
      subscriptionExpiry: new Date(`2030-0${i + 1}-1${i}T1${i}:27:13.000Z`),
    });
  }
  await createMember(app, { email: 'free@example.test', firstName: 'Free' });
  await createMember(app, {
    email: 'ending@example.test',
    subscriptionTier: 'vip',
    subscriptionStatus: 'cancelled_with_access',
    subscriptionSource: 'patreon',
    pledgeAmountCents: 1000,
    subscriptionExpiry: new Date('2031-11-02T08:00:00.000Z'),
  });
  await createMember(app, {
    email: 'lapsed@example.test',
    subscriptionTier: 'dhr1',
    subscriptionStatus: 'expired',
    subscriptionSource: 'admin',
    subscriptionExpiry: new Date('2024-03-01T12:00:00.000Z'),
  });
  // Two grants: the station's DHR1 and a Patreon VIP that decides.
  const header = 'email,subscriptionTier,subscriptionStatus,subscriptionExpiry,pledgeAmount,source';
  await as('POST', '/api/admin/bulk-import', { csvContent: `${header}\ntwo@example.test,DHR1,active,,0,admin` });
  await as('POST', '/api/admin/bulk-import', { csvContent: `${header}\ntwo@example.test,VIP,active,2030-06-01,10,patreon` });

  it('imports a file DHR exported with no change at all, formula-escaped names read back as they were', async () => {
    const before = await db.select().from(users).orderBy(users.email);
    const csv = (await as('GET', '/api/admin/users/export.csv')).body;
    expect(csv).toContain(`'=1+1`);
    const preview = await as('POST', '/api/admin/bulk-import?dryRun=true', { csvContent: csv });
    const res = await as('POST', '/api/admin/bulk-import', { csvContent: csv });
    for (const reply of [preview, res]) {
      expect(reply.statusCode, reply.body).toBe(200);
      expect(reply.json()).toMatchObject({ imported: 0, updated: 0, renamed: 0, skipped: before.length, errors: [] });
      expect(reply.json().plan.counts).toMatchObject({ gainAccess: 0, loseAccess: 0, tierUp: 0, tierDown: 0, detailsChanged: 0, created: 0 });
    }
    expect(await db.select().from(users).orderBy(users.email)).toEqual(before);
    expect((await db.select().from(users).where(eq(users.email, 'formula0@example.test')))[0]?.firstName).toBe('=1+1');
    // The run changed no member: nothing in its log to revert.
    const revert = await as('POST', `/api/admin/sync-runs/${res.json().runId}/revert`, {});
    expect(revert.statusCode).toBe(409);
    expect(revert.json().error.code).toBe('nothing_to_revert');
    expect(rowsOf((await as('GET', '/api/admin/users/export.csv')).body)).toEqual(rowsOf(csv));
  });
});
