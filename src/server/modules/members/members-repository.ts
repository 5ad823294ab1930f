import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, gt, inArray, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { ACCESS_STATUSES, MEMBER_BUCKETS, PAID_HISTORY_STATUSES, PAID_UNTIL_STATUSES, PLEDGE_BANDS, type MemberBucket } from '../../../contracts/tier-policy';
import { SUBSCRIPTION_STATUSES, TIERS, type SubscriptionSource, type SubscriptionStatus, type Tier } from '../../../contracts/tiers';
import { executeRows } from '../../db/rows';
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
  return db
    .select()
    .from(users)
    .where(or(...conditions));
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
  membersAdded();
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
    // The planner cannot count json_to_recordset's rows and scans every member without this list:
    // with it, a chunk of 20 members reads 20 rows by the primary key, however many members there are.
    const ids = `{${part.map((w) => w.userId).join(',')}}`;
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
      where ${users.id} = r.id and ${users.id} = any(${ids}::uuid[])`);
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
  membersAdded();
  const row = rows[0];
  if (!row) throw new Error('member upsert returned nothing');
  return row;
}

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
  return or(
    and(inArray(users.subscriptionStatus, [...ACCESS_STATUSES]), or(isNull(users.subscriptionExpiry), gt(users.subscriptionExpiry, now))),
    and(inArray(users.subscriptionStatus, [...PAID_UNTIL_STATUSES]), gt(users.subscriptionExpiry, now)),
  ) as SQL;
}

/** tier-policy's effectiveTier as SQL: the tier whose features the member has now. */
function effectiveTierSql(now: Date): SQL {
  return sql`case when ${accessNowSql(now)} then ${users.subscriptionTier} else 'free' end`;
}

/** The pledge band a member's pledge buys while it buys access (null otherwise): the dashboard's "pledging" figures. */
function accessPledgeBandSql(now: Date): SQL {
  return sql`case when ${paidAccessNowSql(now)} then ${pledgeBandSql()} end`;
}

/** A paid tier with access now (tier-policy's effectiveTier is not free). */
function paidAccessNowSql(now: Date): SQL {
  return and(accessNowSql(now), ne(users.subscriptionTier, 'free')) as SQL;
}

/** tier-policy's PLEDGE_BANDS (tierForPledgeCents) as SQL. */
function pledgeBandSql(): SQL {
  const whens = PLEDGE_BANDS.map((b) => sql`when ${users.pledgeAmountCents} >= ${b.minCents} then ${b.tier}`);
  return sql`case ${sql.join(whens, sql` `)} else 'free' end`;
}

/** tier-policy's memberBucket as SQL. */
function memberBucketSql(now: Date): SQL {
  const bucket = (b: MemberBucket) => sql`${b}`;
  return sql`case
    when ${paidAccessNowSql(now)} and ${eq(users.subscriptionStatus, 'active')} then ${bucket('active')}
    when ${paidAccessNowSql(now)} then ${bucket('cancelledWithAccess')}
    when ${or(ne(users.subscriptionTier, 'free'), inArray(users.subscriptionStatus, [...PAID_HISTORY_STATUSES]))} then ${bucket('expired')}
    else ${bucket('free')} end`;
}

/**
 * The status a member is in now: a status that gives access but whose expiry has passed counts as
 * expired (the expiry pass writes that a minute later), and a cancelled subscription paid to a future
 * date as cancelled_with_access, so no member is counted twice.
 */
function currentStatusSql(now: Date): SQL {
  return sql`case
    when ${and(inArray(users.subscriptionStatus, [...ACCESS_STATUSES]), lte(users.subscriptionExpiry, now))} then 'expired'
    when ${and(inArray(users.subscriptionStatus, [...PAID_UNTIL_STATUSES]), gt(users.subscriptionExpiry, now))} then 'cancelled_with_access'
    else ${users.subscriptionStatus} end`;
}

export interface MemberFigures {
  total: number;
  /** By the tier whose features the member has now (tier-policy's effectiveTier). */
  byEffectiveTier: Record<Tier, number>;
  /** By current status; each member counted once. */
  byStatus: Record<SubscriptionStatus, number>;
  /** Members with paid access now, by pledge band (tier-policy's PLEDGE_BANDS). */
  byPledgeBand: Record<Tier, number>;
  /** Members with a paid tier whose subscription gives access now. */
  activeSubscribers: number;
  /** By tier-policy's memberBucket; the buckets sum to total. */
  byBucket: Record<MemberBucket, number>;
}

/** The dashboard's member counts, in one pass over the table. */
export async function memberFigures(db: Db, now: Date = new Date()): Promise<MemberFigures> {
  const rows = await db
    .select({
      tier: sql<Tier>`${effectiveTierSql(now)}`,
      status: sql<SubscriptionStatus>`${currentStatusSql(now)}`,
      // Pledges count only while they buy access: a cancelled member's old pledge is no band.
      band: sql<Tier | null>`${accessPledgeBandSql(now)}`,
      bucket: sql<MemberBucket>`${memberBucketSql(now)}`,
      n: count(),
    })
    .from(users)
    .groupBy(sql`1, 2, 3, 4`);
  const zeroBy = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  const figures: MemberFigures = {
    total: 0,
    byEffectiveTier: zeroBy(TIERS),
    byStatus: zeroBy(SUBSCRIPTION_STATUSES),
    byPledgeBand: zeroBy(TIERS),
    activeSubscribers: 0,
    byBucket: zeroBy(MEMBER_BUCKETS),
  };
  for (const r of rows) {
    const n = Number(r.n);
    figures.total += n;
    figures.byEffectiveTier[r.tier] += n;
    figures.byStatus[r.status] += n;
    if (r.band) figures.byPledgeBand[r.band] += n;
    figures.byBucket[r.bucket] += n;
    if (r.tier !== 'free') figures.activeSubscribers += n;
  }
  return figures;
}

/** Each member's bucket by the dashboard's SQL (the property test checks it against tier-policy's memberBucket). */
export async function memberBuckets(db: Db, now: Date = new Date()): Promise<Map<string, MemberBucket>> {
  const rows = await db.select({ id: users.id, bucket: sql<MemberBucket>`${memberBucketSql(now)}` }).from(users);
  return new Map(rows.map((r) => [r.id, r.bucket]));
}

/** `%term%` for LIKE, with the user's own % _ \ taken literally. */
function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface MemberFilters {
  search?: string | undefined;
  /** The stored tier and status (what the member's row says, whether or not it gives access now). */
  tier?: Tier | '' | undefined;
  status?: SubscriptionStatus | '' | undefined;
  /**
   * The dashboard's figures, by the same SQL as memberFigures: the member's bucket now
   * (tier-policy's memberBucket), the tier whose features they have now (effectiveTier), the pledge
   * band their pledge buys while it buys access.
   */
  access?: MemberBucket | '' | undefined;
  effectiveTier?: Tier | '' | undefined;
  pledgeBand?: Tier | '' | undefined;
  /** "Now" for the access filters. */
  now?: Date | undefined;
}

function filterCondition(f: MemberFilters): SQL | undefined {
  const now = f.now ?? new Date();
  const parts: SQL[] = [];
  const term = f.search?.trim();
  if (term) {
    // users.search_text is email, username, first and last name lower-cased, with a pg_trgm GIN index
    // (schema/members.ts): fast at 100,000+ members. A term with a space can span fields ('aoife murphy').
    parts.push(sql`${users.searchText} like ${likePattern(term)}`);
  }
  if (f.tier) parts.push(eq(users.subscriptionTier, f.tier));
  if (f.status) parts.push(eq(users.subscriptionStatus, f.status));
  if (f.access) parts.push(sql`${memberBucketSql(now)} = ${f.access}`);
  if (f.effectiveTier) parts.push(sql`${effectiveTierSql(now)} = ${f.effectiveTier}`);
  if (f.pledgeBand) parts.push(sql`${accessPledgeBandSql(now)} = ${f.pledgeBand}`);
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

/**
 * How many members there are, kept for searches: an admin typing a search asks with every keystroke,
 * and counting 100,000 rows costs more than the search itself. A search answers with the kept count
 * at once and, when it is older than MEMBER_COUNT_TTL_MS, starts one recount in the background, so no
 * search waits for a count (stale while revalidating). A member added through this module makes the
 * next search wait for an exact count.
 */
const MEMBER_COUNT_TTL_MS = 2_000;
let memberCountGeneration = 0;
interface KeptCount {
  /** When the count now kept (or being made) was started. */
  at: number;
  generation: number;
  value: number | null;
  recount: Promise<number> | null;
}
const memberCounts = new WeakMap<Db, KeptCount>();

function membersAdded(): void {
  memberCountGeneration += 1;
}

function recountMembers(db: Db): Promise<number> {
  const kept: KeptCount = memberCounts.get(db) ?? { at: 0, generation: memberCountGeneration, value: null, recount: null };
  if (kept.recount && kept.generation === memberCountGeneration) return kept.recount;
  const generation = memberCountGeneration;
  const recount = db
    .select({ n: count() })
    .from(users)
    .then((r) => r[0]?.n ?? 0);
  Object.assign(kept, { at: Date.now(), generation, recount });
  memberCounts.set(db, kept);
  recount.then(
    (n) => {
      if (kept.recount === recount) Object.assign(kept, { value: n, recount: null });
    },
    () => {
      if (kept.recount === recount) kept.recount = null;
    },
  );
  return recount;
}

function countAllMembers(db: Db, fresh: boolean): Promise<number> {
  const kept = memberCounts.get(db);
  if (fresh || !kept || kept.value === null || kept.generation !== memberCountGeneration) return recountMembers(db);
  if (Date.now() - kept.at >= MEMBER_COUNT_TTL_MS) recountMembers(db).catch(() => undefined); // the next search gets it
  return Promise.resolve(kept.value);
}

/** What the admin list shows of a member (toAdminUser): the search reads these columns, not the whole row. */
const ADMIN_LIST_COLUMNS = {
  id: users.id,
  email: users.email,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
  subscriptionTier: users.subscriptionTier,
  subscriptionStatus: users.subscriptionStatus,
  subscriptionExpiry: users.subscriptionExpiry,
  subscriptionSource: users.subscriptionSource,
  isAdmin: users.isAdmin,
  createdAt: users.createdAt,
  lastLoginAt: users.lastLoginAt,
  pledgeAmountCents: users.pledgeAmountCents,
};
export type AdminListRow = Pick<UserRow, keyof typeof ADMIN_LIST_COLUMNS>;

export interface MemberPage {
  rows: AdminListRow[];
  /** Members matching the filters, exact up to `countCap`; when more match it is countCap and `capped` is true. */
  total: number;
  /** More than `total` members match (the count stopped at its cap). */
  capped: boolean;
  /** Members in the database. */
  unfiltered: number;
}

/**
 * Newest first, in the order of users_created_at_idx (created_at desc nulls last, id): PostgreSQL walks
 * that index and stops after the page instead of sorting every row.
 */
const NEWEST_FIRST = [sql`${users.createdAt} desc nulls last`, users.id];

/**
 * A page of members, newest first, with the filtered and unfiltered totals. The filtered count stops
 * at `countCap` matches (a broad search such as a mail domain matches tens of thousands: counting them
 * all costs more than the page). One statement gives the page and its count: the first cap + 1 matches
 * are read once (the trigram index for a rare term); when they are all the matches, the page is sorted
 * from them, otherwise it walks users_created_at_idx, where a common term fills a page at once.
 */
export async function listMembers(db: Db, f: MemberFilters, limit: number, offset: number, countCap: number): Promise<MemberPage> {
  const where = filterCondition(f);
  if (!where) {
    // Here the count is the list's own total: always counted now.
    const [rows, n] = await Promise.all([
      db
        .select(ADMIN_LIST_COLUMNS)
        .from(users)
        .orderBy(...NEWEST_FIRST)
        .limit(limit)
        .offset(offset),
      countAllMembers(db, true),
    ]);
    return { rows, total: n, capped: false, unfiltered: n };
  }
  if (!f.search?.trim()) {
    // Filters alone (the dashboard's links): counted exactly, so the list's total is the card's figure.
    const [rows, matched, unfiltered] = await Promise.all([
      db
        .select(ADMIN_LIST_COLUMNS)
        .from(users)
        .where(where)
        .orderBy(...NEWEST_FIRST)
        .limit(limit)
        .offset(offset),
      db.select({ n: count() }).from(users).where(where),
      countAllMembers(db, false),
    ]);
    return { rows, total: Number(matched[0]?.n ?? 0), capped: false, unfiltered };
  }
  // Never cap below the end of the page asked for: the count then always covers what is shown.
  const cap = Math.max(countCap, offset + limit);
  // `length(search_text) >= 0` is always true; the planner rates it at a third. Without it, a common
  // term tempts the planner into a sequential scan that stops at cap + 1 matches, which is slow when the
  // matches sit in runs (a surname's family): the trigram index then reads 4x less.
  const firstMatches = sql`select ${users.id} as id, ${users.createdAt} as created_at from ${users}
    where ${where} and length(${users.searchText}) >= 0 limit ${cap + 1}`;
  // Only one branch of the union runs: each is gated by the count (a one-time filter).
  const page = sql`(
    with m as materialized (${firstMatches}), n as (select count(*)::int as c from m)
    select p.id, p.created_at, n.c from n cross join lateral (
      (select m.id, m.created_at from m where n.c <= ${cap} order by m.created_at desc nulls last, m.id limit ${limit} offset ${offset})
      union all
      (select ${users.id}, ${users.createdAt} from ${users} where ${where} and n.c > ${cap}
        order by ${users.createdAt} desc nulls last, ${users.id} limit ${limit} offset ${offset})
    ) as p
  ) as page`;
  const [found, unfiltered] = await Promise.all([
    db
      .select({ user: ADMIN_LIST_COLUMNS, matched: sql<number>`page.c`.mapWith(Number) })
      .from(users)
      .innerJoin(page, sql`page.id = ${users.id}`)
      .orderBy(sql`page.created_at desc nulls last`, sql`page.id`),
    countAllMembers(db, false),
  ]);
  // A page past the last match has no row to carry the count: ask for it alone (never for a first page).
  const countAlone = async () => {
    const [row] = await executeRows<{ c: number }>(db, sql`select count(*)::int as c from (${firstMatches}) as m`);
    return Number(row?.c ?? 0);
  };
  const matched = found[0]?.matched ?? (offset === 0 ? 0 : await countAlone());
  return { rows: found.map((r) => r.user), total: Math.min(matched, cap), capped: matched > cap, unfiltered };
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
/**
 * A member as insertMembersInBulk would store it (each column its default), not stored: a bulk
 * run's preview plans the members it would create without creating them. Its id is a new one; the
 * stored member gets another.
 */
export function unsavedMember(row: NewMemberRow, now: Date = new Date()): UserRow {
  return {
    id: randomUUID(),
    email: row.email,
    username: row.username,
    firstName: row.firstName,
    lastName: row.lastName,
    passwordHash: null,
    isAdmin: false,
    subscriptionTier: 'free',
    subscriptionStatus: 'inactive',
    subscriptionExpiry: null,
    subscriptionSource: 'admin',
    pledgeAmountCents: 0,
    createdAt: now,
    updatedAt: now,
    lastLoginAt: null,
    emailVerifiedAt: now,
    searchText: null,
  };
}

export async function insertMembersInBulk(db: Db, rows: readonly NewMemberRow[]): Promise<{ id: string; email: string }[]> {
  const out: { id: string; email: string }[] = [];
  for (const part of chunks(rows, JSON_CHUNK)) {
    const json = JSON.stringify(part.map((r) => ({ email: r.email, username: r.username, first_name: r.firstName, last_name: r.lastName })));
    const inserted = await uniqueEmail(part[0]?.email ?? '', () =>
      executeRows<{ id: string; email: string }>(
        db,
        sql`
        insert into ${users} (email, username, first_name, last_name)
        select r.email, r.username, r.first_name, r.last_name
        from json_to_recordset(${json}::json) as r(email text, username text, first_name text, last_name text)
        returning id, email`,
      ),
    );
    out.push(...inserted);
    membersAdded();
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

/** Removes the users row; the tables that hold the member's own data go with it (their foreign keys cascade). */
export async function deleteMember(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  return rows.length > 0;
}

/** Members counted by the dashboard's bucket, effective tier and the source of their subscription, at `at` (the analytics rollup). */
export async function memberCountsAt(db: Db, at: Date): Promise<{ bucket: MemberBucket; tier: Tier; platform: SubscriptionSource; n: number }[]> {
  const rows = await db
    .select({
      bucket: sql<MemberBucket>`${memberBucketSql(at)}`,
      tier: sql<Tier>`${effectiveTierSql(at)}`,
      platform: sql<SubscriptionSource>`${users.subscriptionSource}`,
      n: count(),
    })
    .from(users)
    .where(lte(users.createdAt, at))
    .groupBy(sql`1, 2, 3`);
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

/** Of these members, those whose account existed before `at`. */
export async function membersCreatedBefore(db: Db, ids: readonly string[], at: Date): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, [...ids]), sql`${users.createdAt} < ${at.toISOString()}::timestamptz`));
  return new Set(rows.map((r) => r.id));
}

/** The email addresses of every admin (the monthly analytics summary goes to them). */
export async function findAdminEmails(db: Db): Promise<string[]> {
  const rows = await db.select({ email: users.email }).from(users).where(eq(users.isAdmin, true));
  return rows.map((r) => r.email);
}
