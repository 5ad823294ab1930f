import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AdminUser } from '../../../contracts/admin';
import type { SubscriptionStatus, Tier } from '../../../contracts/tiers';
import type { Db } from '../../db/client';
import { users, type UserRow } from '../../db/schema';
import { toMemberSummary } from '../members/member-summary';

export function toAdminUser(u: UserRow): AdminUser {
  return {
    ...toMemberSummary(u),
    createdAt: u.createdAt.toISOString(),
    lastLoginAt: u.lastLoginAt ? u.lastLoginAt.toISOString() : null,
    pledgeAmount: u.pledgeAmountCents,
  };
}

/** `%term%` for LIKE, with the user's own % _ \ taken literally. */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface UserFilters {
  search?: string | undefined;
  tier?: Tier | '' | undefined;
  status?: SubscriptionStatus | '' | undefined;
}

function filterCondition(f: UserFilters): SQL | undefined {
  const parts: SQL[] = [];
  const term = f.search?.trim();
  if (term) {
    // users.search_text is email, username, first and last name lower-cased, with a pg_trgm GIN index
    // (schema/members.ts): fast at 100,000+ members. A term with a space can span fields ('aoife murphy').
    parts.push(sql`${users.searchText} like ${likePattern(term)}`);
  }
  if (f.tier) parts.push(eq(users.subscriptionTier, f.tier));
  if (f.status) parts.push(eq(users.subscriptionStatus, f.status));
  return parts.length ? and(...parts) : undefined;
}

export interface UserPage {
  rows: UserRow[];
  /** Members matching the filters. */
  total: number;
  /** Members in the database. */
  unfiltered: number;
}

/** A page of members, newest first, with the filtered and unfiltered totals. */
export async function listUsers(db: Db, f: UserFilters, limit: number, offset: number): Promise<UserPage> {
  const where = filterCondition(f);
  const allCount = db.select({ n: count() }).from(users);
  if (!where) {
    const [rows, all] = await Promise.all([
      db.select().from(users).orderBy(desc(users.createdAt), users.id).limit(limit).offset(offset),
      allCount,
    ]);
    const n = all[0]?.n ?? 0;
    return { rows, total: n, unfiltered: n };
  }
  // One pass over the matches gives both the page's ids and their count (a broad search such as a
  // mail domain matches thousands of members: reading them twice would double the work).
  const [matched, all] = await Promise.all([
    db.execute(sql`
      with m as materialized (select ${users.id} as id, ${users.createdAt} as created_at from ${users} where ${where})
      select (select count(*) from m)::int as total,
        coalesce((select json_agg(p.id) from (select id from m order by created_at desc, id limit ${limit} offset ${offset}) p), '[]'::json) as ids`),
    allCount,
  ]);
  // node-postgres and PGlite both answer { rows }.
  const first = (matched as unknown as { rows: { total: number; ids: string[] | string }[] }).rows[0];
  const ids: string[] = typeof first?.ids === 'string' ? (JSON.parse(first.ids) as string[]) : (first?.ids ?? []);
  const rows = ids.length ? await db.select().from(users).where(inArray(users.id, ids)).orderBy(desc(users.createdAt), users.id) : [];
  return { rows, total: Number(first?.total ?? 0), unfiltered: all[0]?.n ?? 0 };
}

export async function findUserById(db: Db, id: string): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function findUserIdByEmail(db: Db, email: string): Promise<string | null> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  return rows[0]?.id ?? null;
}

/** PostgreSQL unique violation (drizzle wraps the driver error in `cause`). */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, i = 0; e && i < 4; e = (e as { cause?: unknown }).cause, i++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
