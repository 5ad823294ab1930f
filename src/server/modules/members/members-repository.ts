import { and, count, desc, eq, gt, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { ACCESS_STATUSES, PLEDGE_BANDS } from '../../../contracts/tier-policy';
import { SUBSCRIPTION_STATUSES, TIERS, type SubscriptionSource, type SubscriptionStatus, type Tier } from '../../../contracts/tiers';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { users, type NewUserRow, type UserRow } from '../../db/schema';
import { usernameFromEmail } from './member-views';
import { NO_GRANT, toAccessSnapshot, toGrantSnapshot, type Grant } from '../../../contracts/grants';
import { insertChanges, writeGrants } from './grants-repository';

/**
 * The one owner of the `users` table: every read and write of a member row goes through here
 * (docs/conventions.md). The only other reader is the session lookup in lib/sessions.ts, which joins
 * the row in so that a signed-in request costs one query.
 */

/** Another member already has this email (the unique index said so, even under a race). */
export class EmailTakenError extends Error {
  constructor(readonly email: string) {
    super('email already taken');
    this.name = 'EmailTakenError';
  }
}

const CHUNK = 500;

function chunks<T>(list: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Runs a write, turning a unique violation on the email into EmailTakenError. */
async function uniqueEmail<T>(email: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw new EmailTakenError(email);
    throw err;
  }
}

export async function findMemberById(db: Db, id: string): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ?? null;
}

/** The members with these ids (unknown ids are left out), in no particular order. */
export async function findMembersByIds(db: Db, ids: readonly string[]): Promise<UserRow[]> {
  const found: UserRow[] = [];
  for (const part of chunks([...new Set(ids)])) found.push(...(await db.select().from(users).where(inArray(users.id, part))));
  return found;
}

/** `email` lower-cased, as stored. */
export async function findMemberByEmail(db: Db, email: string): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return rows[0] ?? null;
}

/** The members with any of these (lower-cased) emails, in no particular order. */
export async function findMembersByEmails(db: Db, emails: readonly string[]): Promise<UserRow[]> {
  const found: UserRow[] = [];
  for (const part of chunks(emails)) found.push(...(await db.select().from(users).where(inArray(users.email, part))));
  return found;
}

export interface MemberSelection {
  /** A subquery returning emails: members with one of them. */
  emailIn?: SQL;
  /** Members whose subscription came from one of these sources. */
  sources?: readonly SubscriptionSource[];
  /** A subquery returning member ids: members with one of them. */
  idIn?: SQL;
  /** More such subqueries. */
  idsIn?: readonly SQL[];
}

/** Members matching any part of the selection (none when it is empty). */
export async function findMembersMatching(db: Db, selection: MemberSelection): Promise<UserRow[]> {
  const conditions: SQL[] = [];
  if (selection.emailIn) conditions.push(sql`${users.email} in (${selection.emailIn})`);
  if (selection.sources?.length) conditions.push(inArray(users.subscriptionSource, [...selection.sources]));
  if (selection.idIn) conditions.push(sql`${users.id} in (${selection.idIn})`);
  for (const q of selection.idsIn ?? []) conditions.push(sql`${users.id} in (${q})`);
  if (!conditions.length) return [];
  return db.select().from(users).where(or(...conditions));
}

export async function adminExists(db: Db): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).limit(1);
  return rows.length > 0;
}

/** Inserts a member; EmailTakenError when the email is already used. */
/** The ids of every admin (a handful). */
export async function findAdminIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true));
  return rows.map((r) => r.id);
}

/**
 * Inserts a member; EmailTakenError when the email is already used. A paid subscription given at
 * creation (an admin's form, a platform subscriber's first sign-in) is stored as the grant of its
 * source too, so the member's effective subscription can be recomputed from grants later.
 */
export async function insertMember(db: Db, values: NewUserRow): Promise<UserRow> {
  const rows = await uniqueEmail(values.email, () => db.insert(users).values(values).returning());
  const row = rows[0];
  if (!row) throw new Error('member insert returned nothing');
  if (row.subscriptionTier !== 'free') {
    const grant = effectiveOf(row);
    await writeGrants(db, [{ userId: row.id, source: row.subscriptionSource, grant }]);
    const snapshot = toAccessSnapshot(grant);
    await insertChanges(db, [
      {
        userId: row.id,
        cause: row.subscriptionSource === 'admin' ? 'admin' : 'signup',
        causeRef: null,
        runId: null,
        before: toAccessSnapshot(NO_GRANT),
        after: snapshot,
        grantsBefore: [],
        grantsAfter: [toGrantSnapshot(grant)],
        reason: 'account created',
      },
    ]);
  }
  return row;
}

/** A member's effective subscription (the users row) as a grant. */
export function effectiveOf(u: UserRow): Grant {
  return {
    source: u.subscriptionSource,
    tier: u.subscriptionTier,
    status: u.subscriptionStatus,
    expiry: u.subscriptionExpiry,
    pledgeAmountCents: u.pledgeAmountCents,
  };
}

export interface EffectiveWrite {
  userId: string;
  grant: Grant;
}

/** Writes members' effective subscriptions (the best of their grants) onto their rows, in bulk. */
export async function writeEffectiveSubscriptions(db: Db, writes: readonly EffectiveWrite[], now: Date = new Date()): Promise<void> {
  for (const part of chunks(writes, JSON_CHUNK)) {
    const json = JSON.stringify(
      part.map((w) => ({
        id: w.userId,
        tier: w.grant.tier,
        status: w.grant.status,
        expiry: w.grant.expiry ? w.grant.expiry.toISOString() : null,
        source: w.grant.source,
        amount: w.grant.pledgeAmountCents,
      })),
    );
    await db.execute(sql`
      update ${users} set subscription_tier = r.tier, subscription_status = r.status, subscription_expiry = r.expiry,
        subscription_source = r.source, pledge_amount_cents = r.amount, updated_at = ${now.toISOString()}::timestamptz
      from json_to_recordset(${json}::json) as r(id uuid, tier text, status text, expiry timestamptz, source text, amount integer)
      where ${users.id} = r.id`);
  }
}

/** Members whose subscription gives access now (the guard of bulk runs compares losses with it). */
export async function countMembersWithAccess(db: Db, now: Date = new Date()): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(accessNowSql(now), sql`${users.subscriptionTier} <> 'free'`));
  return Number(row?.n ?? 0);
}

/** Members whose stored subscription gives access by status but whose expiry has passed (the expiry pass). */
export async function membersPastExpiry(db: Db, now: Date = new Date()): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(lte(users.subscriptionExpiry, now), inArray(users.subscriptionStatus, [...ACCESS_STATUSES])));
  return rows.map((r) => r.id);
}

/** Updates a member; null when there is no such member, EmailTakenError when a new email is used. */
export async function updateMember(db: Db, id: string, values: Partial<Omit<NewUserRow, 'id'>>, now: Date = new Date()): Promise<UserRow | null> {
  const rows = await uniqueEmail(values.email ?? '', () =>
    db
      .update(users)
      .set({ ...values, updatedAt: now })
      .where(eq(users.id, id))
      .returning(),
  );
  return rows[0] ?? null;
}

export async function recordLogin(db: Db, id: string): Promise<void> {
  await db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, id));
}

export interface MemberIdentity {
  email: string;
  /** Kept when the member exists and none is given; new members get one from their email. */
  username?: string | undefined;
}

/**
 * The member with this email, created when new. One statement whether or not the member exists,
 * so two admins at once cannot create duplicates. The admin vouches for the email: an unverified
 * account is verified (ADR 0013).
 */
export async function ensureMember(db: Db, who: MemberIdentity): Promise<UserRow> {
  const rows = await db
    .insert(users)
    .values({ email: who.email, username: who.username ?? usernameFromEmail(who.email) })
    .onConflictDoUpdate({
      target: users.email,
      set: { emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, ...(who.username ? { username: who.username } : {}) },
    })
    .returning();
  const row = rows[0];
  if (!row) throw new Error('member upsert returned nothing');
  return row;
}

/** Makes the email's member an admin with this password, creating the member if needed. */
/**
 * Makes an existing member an admin. Their password and username stay unless new ones are given
 * (the admin CLI's --promote).
 */
export async function promoteToAdmin(db: Db, id: string, changes: { passwordHash?: string | undefined; username?: string | undefined }): Promise<void> {
  await updateMember(db, id, {
    isAdmin: true,
    ...(changes.passwordHash ? { passwordHash: changes.passwordHash } : {}),
    ...(changes.username ? { username: changes.username } : {}),
  });
}

/** A new admin account (the admin CLI's create). */
export async function insertAdmin(db: Db, values: { email: string; username: string; passwordHash: string }): Promise<void> {
  await insertMember(db, { ...values, isAdmin: true, subscriptionStatus: 'active' });
}

/** tier-policy's access rule (hasActiveSubscription) as SQL. */
function accessNowSql(now: Date): SQL {
  return and(inArray(users.subscriptionStatus, [...ACCESS_STATUSES]), or(isNull(users.subscriptionExpiry), gt(users.subscriptionExpiry, now))) as SQL;
}

/** tier-policy's PLEDGE_BANDS (tierForPledgeCents) as SQL. */
function pledgeBandSql(): SQL {
  const whens = PLEDGE_BANDS.map((b) => sql`when ${users.pledgeAmountCents} >= ${b.minCents} then ${b.tier}`);
  return sql`case ${sql.join(whens, sql` `)} else 'free' end`;
}

/**
 * The status a member is in now: a status that gives access but whose expiry has passed counts as
 * expired (the expiry pass writes that a minute later), so no member is counted twice.
 */
function currentStatusSql(now: Date): SQL {
  return sql`case when ${and(inArray(users.subscriptionStatus, [...ACCESS_STATUSES]), lte(users.subscriptionExpiry, now))} then 'expired' else ${users.subscriptionStatus} end`;
}

export interface MemberFigures {
  total: number;
  /** By the tier whose features the member has now (tier-policy's effectiveTier). */
  byEffectiveTier: Record<Tier, number>;
  /** By current status; each member counted once. */
  byStatus: Record<SubscriptionStatus, number>;
  /** By pledge band (tier-policy's PLEDGE_BANDS). */
  byPledgeBand: Record<Tier, number>;
  /** Members with a paid tier whose subscription gives access now. */
  activeSubscribers: number;
}

/** The dashboard's member counts, in one pass over the table. */
export async function memberFigures(db: Db, now: Date = new Date()): Promise<MemberFigures> {
  const rows = await db
    .select({
      tier: sql<Tier>`case when ${accessNowSql(now)} then ${users.subscriptionTier} else 'free' end`,
      status: sql<SubscriptionStatus>`${currentStatusSql(now)}`,
      band: sql<Tier>`${pledgeBandSql()}`,
      n: count(),
    })
    .from(users)
    .groupBy(sql`1, 2, 3`);
  const zeroBy = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  const figures: MemberFigures = {
    total: 0,
    byEffectiveTier: zeroBy(TIERS),
    byStatus: zeroBy(SUBSCRIPTION_STATUSES),
    byPledgeBand: zeroBy(TIERS),
    activeSubscribers: 0,
  };
  for (const r of rows) {
    const n = Number(r.n);
    figures.total += n;
    figures.byEffectiveTier[r.tier] += n;
    figures.byStatus[r.status] += n;
    figures.byPledgeBand[r.band] += n;
    if (r.tier !== 'free') figures.activeSubscribers += n;
  }
  return figures;
}

/** `%term%` for LIKE, with the user's own % _ \ taken literally. */
function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface MemberFilters {
  search?: string | undefined;
  tier?: Tier | '' | undefined;
  status?: SubscriptionStatus | '' | undefined;
}

function filterCondition(f: MemberFilters): SQL | undefined {
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

/** Where a keyset page of members ends: the last row's created_at (as PostgreSQL text, to keep its microseconds) and id. */
export interface MemberCursor {
  createdAt: string;
  id: string;
}

/**
 * One keyset page of the members matching the filters, newest first (created_at, then id, both
 * descending), after `cursor`: the export reads every match this way without holding them all.
 */
export async function memberKeysetPage(
  db: Db,
  f: MemberFilters,
  cursor: MemberCursor | null,
  limit: number,
): Promise<{ rows: UserRow[]; next: MemberCursor | null }> {
  const where = and(filterCondition(f), cursor ? sql`(${users.createdAt}, ${users.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)` : undefined);
  const found = await db
    .select({ row: users, cursorAt: sql<string>`${users.createdAt}::text` })
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit);
  const last = found.at(-1);
  return { rows: found.map((r) => r.row), next: found.length === limit && last ? { createdAt: last.cursorAt, id: last.row.id } : null };
}

export interface MemberPage {
  rows: UserRow[];
  /** Members matching the filters. */
  total: number;
  /** Members in the database. */
  unfiltered: number;
}

/** A page of members, newest first, with the filtered and unfiltered totals. */
export async function listMembers(db: Db, f: MemberFilters, limit: number, offset: number): Promise<MemberPage> {
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

/** A member a bulk import creates (the subscription follows through a grant). */
export interface NewMemberRow {
  email: string;
  username: string;
  firstName: string | null;
  lastName: string | null;
}

export interface MemberNames {
  id: string;
  firstName: string | null;
  lastName: string | null;
}

const JSON_CHUNK = 5000;

/**
 * Inserts new members in bulk and returns their ids. Rows travel as one JSON parameter per chunk
 * (json_to_recordset): far fewer bind parameters than a VALUES list, which keeps 10,000 rows quick
 * on PGlite too. EmailTakenError when an email exists meanwhile. Imported members count as
 * verified (the column's default; ADR 0013).
 */
export async function insertMembersInBulk(db: Db, rows: readonly NewMemberRow[]): Promise<{ id: string; email: string }[]> {
  const out: { id: string; email: string }[] = [];
  for (const part of chunks(rows, JSON_CHUNK)) {
    const json = JSON.stringify(part.map((r) => ({ email: r.email, username: r.username, first_name: r.firstName, last_name: r.lastName })));
    const res = await uniqueEmail(part[0]?.email ?? '', () =>
      db.execute(sql`
        insert into ${users} (email, username, first_name, last_name)
        select r.email, r.username, r.first_name, r.last_name
        from json_to_recordset(${json}::json) as r(email text, username text, first_name text, last_name text)
        returning id, email`),
    );
    // node-postgres and PGlite both answer { rows }.
    out.push(...(res as unknown as { rows: { id: string; email: string }[] }).rows);
  }
  return out;
}

/** Sets members' names in bulk; an imported member's email counts as verified (ADR 0013). */
export async function renameMembersInBulk(db: Db, rows: readonly MemberNames[]): Promise<void> {
  for (const part of chunks(rows, JSON_CHUNK)) {
    const json = JSON.stringify(part.map((r) => ({ id: r.id, first_name: r.firstName, last_name: r.lastName })));
    await db.execute(sql`
      update ${users} set first_name = r.first_name, last_name = r.last_name, updated_at = now(),
        email_verified_at = coalesce(email_verified_at, now())
      from json_to_recordset(${json}::json) as r(id uuid, first_name text, last_name text)
      where ${users.id} = r.id`);
  }
}
