import { and, count, eq, gt, inArray, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { ACCESS_STATUSES, MEMBER_BUCKETS, PAID_HISTORY_STATUSES, PAID_UNTIL_STATUSES, PLEDGE_BANDS, type MemberBucket } from '../../../contracts/tier-policy';
import { SUBSCRIPTION_STATUSES, TIERS, type SubscriptionSource, type SubscriptionStatus, type Tier } from '../../../contracts/tiers';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { users, type NewUserRow, type UserRow } from '../../db/schema';
import { usernameFromEmail } from './member-views';

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
}

/** Members matching any part of the selection (none when it is empty). */
export async function findMembersMatching(db: Db, selection: MemberSelection): Promise<UserRow[]> {
  const conditions: SQL[] = [];
  if (selection.emailIn) conditions.push(sql`${users.email} in (${selection.emailIn})`);
  if (selection.sources?.length) conditions.push(inArray(users.subscriptionSource, [...selection.sources]));
  if (selection.idIn) conditions.push(sql`${users.id} in (${selection.idIn})`);
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

export async function insertMember(db: Db, values: NewUserRow): Promise<UserRow> {
  const rows = await uniqueEmail(values.email, () => db.insert(users).values(values).returning());
  membersAdded();
  const row = rows[0];
  if (!row) throw new Error('member insert returned nothing');
  return row;
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

export interface TierGrant {
  email: string;
  /** Kept when the member exists and none is given; new members get one from their email. */
  username?: string | undefined;
  tier: Tier;
  expiry: Date | null;
}

/**
 * An admin grant of `tier` (status active, source admin), creating the member when the email is new.
 * One statement whether or not the member exists, so two admins at once cannot create duplicates.
 */
export async function grantTier(db: Db, grant: TierGrant): Promise<UserRow> {
  const set = {
    subscriptionTier: grant.tier,
    subscriptionStatus: 'active' as const,
    subscriptionSource: 'admin' as const,
    subscriptionExpiry: grant.expiry,
    updatedAt: new Date(),
  };
  const rows = await db
    .insert(users)
    .values({ email: grant.email, username: grant.username ?? usernameFromEmail(grant.email), ...set })
    // The admin vouches for the email: an unverified account is verified by the grant (ADR 0013).
    .onConflictDoUpdate({
      target: users.email,
      set: { ...set, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, ...(grant.username ? { username: grant.username } : {}) },
    })
    .returning();
  membersAdded();
  const row = rows[0];
  if (!row) throw new Error('tier grant returned nothing');
  return row;
}

/** Makes the email's member an admin with this password, creating the member if needed. */
export async function upsertAdmin(db: Db, values: { email: string; username: string; passwordHash: string }): Promise<'created' | 'promoted'> {
  const existing = await findMemberByEmail(db, values.email);
  if (existing) {
    await updateMember(db, existing.id, { isAdmin: true, passwordHash: values.passwordHash, username: values.username });
    return 'promoted';
  }
  await insertMember(db, { ...values, isAdmin: true, subscriptionStatus: 'active' });
  return 'created';
}

/** Moves every passed expiry to status expired (admin grants included). Returns how many changed. */
export async function expirePassedMembers(db: Db, now: Date = new Date()): Promise<number> {
  const rows = await db
    .update(users)
    .set({ subscriptionStatus: 'expired', updatedAt: now })
    .where(and(lte(users.subscriptionExpiry, now), inArray(users.subscriptionStatus, [...ACCESS_STATUSES])))
    .returning({ id: users.id });
  return rows.length;
}

/** tier-policy's access rule (hasActiveSubscription) as SQL. */
function accessNowSql(now: Date): SQL {
  return or(
    and(inArray(users.subscriptionStatus, [...ACCESS_STATUSES]), or(isNull(users.subscriptionExpiry), gt(users.subscriptionExpiry, now))),
    and(inArray(users.subscriptionStatus, [...PAID_UNTIL_STATUSES]), gt(users.subscriptionExpiry, now)),
  ) as SQL;
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
      tier: sql<Tier>`case when ${accessNowSql(now)} then ${users.subscriptionTier} else 'free' end`,
      status: sql<SubscriptionStatus>`${currentStatusSql(now)}`,
      // Pledges count only while they buy access: a cancelled member's old pledge is no band.
      band: sql<Tier | null>`case when ${paidAccessNowSql(now)} then ${pledgeBandSql()} end`,
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

/**
 * How many members there are, kept for a moment for searches: an admin typing a search asks with every
 * keystroke, and counting 100,000 rows costs more than the search itself. Exact as of at most
 * MEMBER_COUNT_TTL_MS ago; a member added through this module drops it at once.
 */
const MEMBER_COUNT_TTL_MS = 2_000;
let memberCountGeneration = 0;
const memberCounts = new WeakMap<Db, { at: number; generation: number; n: Promise<number> }>();

function membersAdded(): void {
  memberCountGeneration += 1;
}

function countAllMembers(db: Db, fresh: boolean): Promise<number> {
  const kept = memberCounts.get(db);
  if (!fresh && kept && kept.generation === memberCountGeneration && Date.now() - kept.at < MEMBER_COUNT_TTL_MS) return kept.n;
  const n = db
    .select({ n: count() })
    .from(users)
    .then((r) => r[0]?.n ?? 0);
  memberCounts.set(db, { at: Date.now(), generation: memberCountGeneration, n });
  n.catch(() => memberCounts.delete(db));
  return n;
}

export interface MemberPage {
  rows: UserRow[];
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
    const [rows, n] = await Promise.all([db.select().from(users).orderBy(...NEWEST_FIRST).limit(limit).offset(offset), countAllMembers(db, true)]);
    return { rows, total: n, capped: false, unfiltered: n };
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
      .select({ user: users, matched: sql<number>`page.c`.mapWith(Number) })
      .from(users)
      .innerJoin(page, sql`page.id = ${users.id}`)
      .orderBy(sql`page.created_at desc nulls last`, sql`page.id`),
    countAllMembers(db, false),
  ]);
  // A page past the last match has no row to carry the count: ask for it alone (never for a first page).
  const countAlone = async () => {
    const res = await db.execute(sql`select count(*)::int as c from (${firstMatches}) as m`);
    // node-postgres and PGlite both answer { rows }.
    return Number((res as unknown as { rows: { c: number }[] }).rows[0]?.c ?? 0);
  };
  const matched = found[0]?.matched ?? (offset === 0 ? 0 : await countAlone());
  return { rows: found.map((r) => r.user), total: Math.min(matched, cap), capped: matched > cap, unfiltered };
}

/** One member row of a bulk write (bulk import). */
export interface BulkMemberRow {
  /** Set for updates, null for inserts. */
  id: string | null;
  email: string;
  username: string;
  firstName: string | null;
  lastName: string | null;
  tier: Tier;
  status: SubscriptionStatus;
  expiry: Date | null;
  source: SubscriptionSource;
  pledgeAmountCents: number;
}

const JSON_CHUNK = 5000;
const RECORD = sql.raw(
  'r(id uuid, email text, username text, first_name text, last_name text, tier text, status text, expiry timestamptz, source text, amount integer)',
);

function recordJson(rows: BulkMemberRow[]): string {
  return JSON.stringify(
    rows.map((r) => ({
      id: r.id,
      email: r.email,
      username: r.username,
      first_name: r.firstName,
      last_name: r.lastName,
      tier: r.tier,
      status: r.status,
      expiry: r.expiry ? r.expiry.toISOString() : null,
      source: r.source,
      amount: r.pledgeAmountCents,
    })),
  );
}

/**
 * Inserts new members and updates existing ones (by id) in bulk. Rows travel as one JSON parameter
 * per chunk (json_to_recordset): far fewer bind parameters than a VALUES list, which keeps 10,000
 * rows quick on PGlite too. EmailTakenError when an inserted email exists meanwhile. Imported members
 * count as verified: new rows by the column's default, updated ones here (ADR 0013).
 */
export async function writeMembersInBulk(db: Db, inserts: BulkMemberRow[], updates: BulkMemberRow[]): Promise<void> {
  for (const part of chunks(inserts, JSON_CHUNK)) {
    await uniqueEmail(part[0]?.email ?? '', () =>
      db.execute(sql`
        insert into ${users} (email, username, first_name, last_name, subscription_tier, subscription_status,
          subscription_expiry, subscription_source, pledge_amount_cents)
        select r.email, r.username, r.first_name, r.last_name, r.tier, r.status, r.expiry, r.source, r.amount
        from json_to_recordset(${recordJson(part)}::json) as ${RECORD}`),
    );
    membersAdded();
  }
  for (const part of chunks(updates, JSON_CHUNK)) {
    await db.execute(sql`
      update ${users} set
        first_name = r.first_name, last_name = r.last_name, subscription_tier = r.tier, subscription_status = r.status,
        subscription_expiry = r.expiry, pledge_amount_cents = r.amount, subscription_source = r.source, updated_at = now(),
        email_verified_at = coalesce(email_verified_at, now())
      from json_to_recordset(${recordJson(part)}::json) as ${RECORD}
      where ${users.id} = r.id`);
  }
}
