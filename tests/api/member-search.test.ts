import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SEARCH_COUNT_CAP, TOTAL_CAPPED_HEADER, type AdminUser } from '../../src/contracts/admin';
import { users } from '../../src/server/db/schema';
import type { NewUserRow } from '../../src/server/db/schema';
import { createTestApp, insertMemberRows, memberWithRole } from '../support/app';

const BROAD = SEARCH_COUNT_CAP + 100;

describe('admin member search: bounded counts that say so', async () => {
  const app = await createTestApp();
  const admin = await memberWithRole(app, 'admin');
  const db = app.database.db;
  const asAdmin = { cookie: admin.cookie };
  const row = (email: string, lastName: string): NewUserRow => ({ email, username: email.split('@')[0] ?? email, firstName: 'Test', lastName });
  // More members share 'broadname' than the count goes; seven share 'rarename'.
  await insertMemberRows(
    app,
    Array.from({ length: BROAD }, (_, i) => row(`broad${i}@example.test`, 'Broadname')),
  );
  await insertMemberRows(
    app,
    Array.from({ length: 7 }, (_, i) => row(`rare${i}@example.test`, 'Rarename')),
  );

  const membersNow = async () => Number((await db.select({ n: count() }).from(users))[0]?.n ?? 0);
  const search = async (qs: string) => {
    const res = await app.inject({ url: `/api/admin/users?${qs}`, headers: asAdmin });
    expect(res.statusCode, res.body).toBe(200);
    return {
      rows: res.json<AdminUser[]>(),
      total: Number(res.headers['x-total-count']),
      capped: res.headers[TOTAL_CAPPED_HEADER],
      all: Number(res.headers['x-unfiltered-count']),
    };
  };

  it('stops counting a broad search at the cap and says so in a header', async () => {
    const r = await search('search=BROADNAME&limit=50');
    expect(r.rows).toHaveLength(50);
    expect(r.total).toBe(SEARCH_COUNT_CAP);
    expect(r.capped).toBe('true');
    expect(r.all).toBe(await membersNow());
    expect(r.rows.every((u) => u.lastName === 'Broadname')).toBe(true);
    // Newest first, ties by id: the same order as the unfiltered list.
    const order = [...r.rows].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
    expect(r.rows.map((u) => u.id)).toEqual(order.map((u) => u.id));
  });

  it('counts exactly up to the end of the page asked for, so a late page still knows its total', async () => {
    const r = await search(`search=broadname&limit=50&offset=${BROAD - 20}`);
    expect(r.rows).toHaveLength(20);
    expect(r.total).toBe(BROAD);
    expect(r.capped).toBeUndefined();
    // A page read along the newest-first index (more matches than its cap) and one sorted from all
    // the matches (its cap reaches past them) agree where they overlap.
    const walked = await search(`search=broadname&limit=60&offset=${SEARCH_COUNT_CAP - 10}`);
    expect(walked.capped).toBe('true');
    const sorted = await search(`search=broadname&limit=100&offset=${SEARCH_COUNT_CAP}`);
    expect(sorted.capped).toBeUndefined();
    expect(sorted.rows.slice(0, 50).map((u) => u.id)).toEqual(walked.rows.slice(10).map((u) => u.id));
    // Past the last match: no rows, and still the exact count.
    const past = await search(`search=rarename&limit=50&offset=100`);
    expect(past.rows).toEqual([]);
    expect(past.total).toBe(7);
  });

  it('counts a narrow search exactly, without the capped header', async () => {
    const r = await search('search=rarename');
    expect(r.rows.map((u) => u.email).sort()).toEqual(Array.from({ length: 7 }, (_, i) => `rare${i}@example.test`));
    expect(r.total).toBe(7);
    expect(r.capped).toBeUndefined();
    const none = await search('search=nobody-has-this');
    expect(none).toMatchObject({ rows: [], total: 0, capped: undefined });
  });

  it('keeps the unfiltered count true after a member is added', async () => {
    const before = await search('search=rarename');
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: asAdmin,
      payload: { email: 'rare-new@example.test', username: 'rarenew' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const after = await search('search=rarename');
    expect(after.all).toBe(before.all + 1);
    expect(after.all).toBe(await membersNow());
  });

  it('refuses bad paging and search input with a 400 and changes nothing', async () => {
    const before = await membersNow();
    for (const bad of ['search=' + 'x'.repeat(201), 'search=a&limit=0', 'search=a&limit=501', 'search=a&offset=-1', 'search=a&offset=abc']) {
      const res = await app.inject({ url: `/api/admin/users?${bad}`, headers: asAdmin });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.code).toBe('validation_error');
    }
    expect(await membersNow()).toBe(before);
  });
});
