import { and, desc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Grant, GrantSnapshot, MemberAccessSnapshot } from '../../../contracts/grants';
import { ACCESS_STATUSES } from '../../../contracts/tier-policy';
import type { SubscriptionSource } from '../../../contracts/tiers';
import { executeRows } from '../../db/rows';
import type { Db } from '../../db/client';
import {
  heldChanges,
  memberChanges,
  memberGrants,
  type HeldChangeRow,
  type MemberChangeCause,
  type MemberChangeRow,
  type MemberNamesSnapshot,
} from '../../db/schema';

/** SQL for the member_grants, member_changes and held_changes tables (schema/grants.ts). */

const CHUNK = 500;
const JSON_CHUNK = 5_000;

function chunks<T>(list: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** The stored grants of these members, by member id (members without any are absent). */
export async function grantsOf(db: Db, userIds: readonly string[]): Promise<Map<string, Grant[]>> {
  const out = new Map<string, Grant[]>();
  for (const part of chunks([...new Set(userIds)])) {
    const rows = await db.select().from(memberGrants).where(inArray(memberGrants.userId, part));
    for (const r of rows) {
      const list = out.get(r.userId) ?? [];
      list.push({ source: r.source, tier: r.tier, status: r.status, expiry: r.expiry, pledgeAmountCents: r.pledgeAmountCents });
      out.set(r.userId, list);
    }
  }
  return out;
}

export interface GrantWrite {
  userId: string;
  source: SubscriptionSource;
  /** Null removes the member's grant from this source. */
  grant: Grant | null;
}

/** Writes grants in bulk (one JSON parameter per chunk: quick for 10,000 members on PGlite too). */
export async function writeGrants(db: Db, writes: readonly GrantWrite[], now: Date = new Date()): Promise<void> {
  const upserts = writes.filter((w) => w.grant);
  const deletes = writes.filter((w) => !w.grant);
  for (const part of chunks(upserts, JSON_CHUNK)) {
    const json = JSON.stringify(
      part.map((w) => ({
        user_id: w.userId,
        source: w.source,
        tier: w.grant?.tier,
        status: w.grant?.status,
        expiry: w.grant?.expiry ? w.grant.expiry.toISOString() : null,
        amount: w.grant?.pledgeAmountCents ?? 0,
      })),
    );
    await db.execute(sql`
      insert into ${memberGrants} (user_id, source, tier, status, expiry, pledge_amount_cents, updated_at)
      select r.user_id, r.source, r.tier, r.status, r.expiry, r.amount, ${now.toISOString()}::timestamptz
      from json_to_recordset(${json}::json) as r(user_id uuid, source text, tier text, status text, expiry timestamptz, amount integer)
      on conflict (user_id, source) do update set tier = excluded.tier, status = excluded.status, expiry = excluded.expiry,
        pledge_amount_cents = excluded.pledge_amount_cents, updated_at = excluded.updated_at`);
  }
  for (const part of chunks(deletes, JSON_CHUNK)) {
    const json = JSON.stringify(part.map((w) => ({ user_id: w.userId, source: w.source })));
    await db.execute(sql`
      delete from ${memberGrants} g using json_to_recordset(${json}::json) as r(user_id uuid, source text)
      where g.user_id = r.user_id and g.source = r.source`);
  }
}

/** Members with a grant that gives access by status but whose expiry has passed (the expiry pass). */
export async function membersWithPassedGrants(db: Db, now: Date = new Date()): Promise<string[]> {
  const rows = await db
    .selectDistinct({ userId: memberGrants.userId })
    .from(memberGrants)
    .where(and(isNotNull(memberGrants.expiry), lte(memberGrants.expiry, now), inArray(memberGrants.status, [...ACCESS_STATUSES])));
  return rows.map((r) => r.userId);
}

/** Members holding a grant from this source (a platform's complete listing concerns them). */
export function membersWithGrantFrom(source: SubscriptionSource) {
  return sql`select ${memberGrants.userId} from ${memberGrants} where ${memberGrants.source} = ${source}`;
}

export interface ChangeRecord {
  userId: string;
  cause: MemberChangeCause;
  causeRef: string | null;
  runId: number | null;
  before: MemberAccessSnapshot;
  after: MemberAccessSnapshot;
  grantsBefore: GrantSnapshot[];
  grantsAfter: GrantSnapshot[];
  reason: string | null;
}

export async function insertChanges(db: Db, records: readonly ChangeRecord[], now: Date = new Date()): Promise<void> {
  for (const part of chunks(records, JSON_CHUNK)) {
    const json = JSON.stringify(
      part.map((c) => ({
        user_id: c.userId,
        cause: c.cause,
        cause_ref: c.causeRef,
        run_id: c.runId,
        before: c.before,
        after: c.after,
        grants_before: c.grantsBefore,
        grants_after: c.grantsAfter,
        reason: c.reason,
      })),
    );
    await db.execute(sql`
      insert into ${memberChanges} (user_id, at, cause, cause_ref, run_id, before, after, grants_before, grants_after, reason)
      select r.user_id, ${now.toISOString()}::timestamptz, r.cause, r.cause_ref, r.run_id, r.before, r.after, r.grants_before, r.grants_after, r.reason
      from json_to_recordset(${json}::json)
        as r(user_id uuid, cause text, cause_ref text, run_id integer, before jsonb, after jsonb, grants_before jsonb, grants_after jsonb, reason text)`);
  }
}

/** A member's changes, newest first. */
export async function changesOfMember(db: Db, userId: string, limit: number): Promise<MemberChangeRow[]> {
  return db.select().from(memberChanges).where(eq(memberChanges.userId, userId)).orderBy(desc(memberChanges.id)).limit(limit);
}

/** A run's changes, oldest first. */
export async function changesOfRun(db: Db, runId: number): Promise<MemberChangeRow[]> {
  return db.select().from(memberChanges).where(eq(memberChanges.runId, runId)).orderBy(memberChanges.id);
}

export interface NameChangeRecord extends ChangeRecord {
  namesBefore: MemberNamesSnapshot;
  namesAfter: MemberNamesSnapshot;
}

/**
 * Records the names a run changed on its history lines (all of one run): a member whose grants the
 * run also changed has the names added to that line, any other gets a line of its own with the same
 * access before and after.
 */
export async function recordNameChanges(db: Db, runId: number, records: readonly NameChangeRecord[], now: Date = new Date()): Promise<void> {
  const setNames = async (part: readonly NameChangeRecord[]) => {
    const json = JSON.stringify(part.map((r) => ({ user_id: r.userId, names_before: r.namesBefore, names_after: r.namesAfter })));
    const updated = await executeRows<{ user_id: string }>(
      db,
      sql`
      update ${memberChanges} set names_before = r.names_before, names_after = r.names_after
      from json_to_recordset(${json}::json) as r(user_id uuid, names_before jsonb, names_after jsonb)
      where ${memberChanges.userId} = r.user_id and ${memberChanges.runId} = ${runId}
      returning ${memberChanges.userId} as user_id`,
    );
    return new Set(updated.map((r) => r.user_id));
  };
  const missing: NameChangeRecord[] = [];
  for (const part of chunks(records, JSON_CHUNK)) {
    const done = await setNames(part);
    missing.push(...part.filter((r) => !done.has(r.userId)));
  }
  if (!missing.length) return;
  await insertChanges(db, missing, now);
  for (const part of chunks(missing, JSON_CHUNK)) await setNames(part);
}

/** Each member's latest change id (a revert must not overwrite a change newer than its run's). */
export async function latestChangeIds(db: Db, userIds: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const part of chunks([...new Set(userIds)])) {
    const rows = await db
      .select({ userId: memberChanges.userId, id: sql<number>`max(${memberChanges.id})::int` })
      .from(memberChanges)
      .where(inArray(memberChanges.userId, part))
      .groupBy(memberChanges.userId);
    for (const r of rows) out.set(r.userId, Number(r.id));
  }
  return out;
}

// ---------------------------------------------------------------- held changes

export interface HeldRecord {
  runId: number | null;
  userId: string;
  source: SubscriptionSource;
  current: GrantSnapshot | null;
  next: GrantSnapshot | null;
  reason: string;
}

/** Holds changes; a member's newer held change from the same source replaces the older one. */
export async function holdChanges(db: Db, records: readonly HeldRecord[]): Promise<void> {
  for (const part of chunks(records)) {
    if (!part.length) continue;
    await db
      .insert(heldChanges)
      .values(part.map((r) => ({ ...r })))
      .onConflictDoUpdate({
        target: [heldChanges.userId, heldChanges.source],
        set: { runId: sql`excluded.run_id`, current: sql`excluded.current`, next: sql`excluded.next`, reason: sql`excluded.reason`, createdAt: sql`now()` },
      });
  }
}

/** Drops the held changes from these sources (a new run over them decides again). */
export async function clearHeldChanges(db: Db, sources: readonly SubscriptionSource[]): Promise<void> {
  if (sources.length) await db.delete(heldChanges).where(inArray(heldChanges.source, [...sources]));
}

export async function listHeldChanges(db: Db, limit: number): Promise<HeldChangeRow[]> {
  return db.select().from(heldChanges).orderBy(heldChanges.id).limit(limit);
}

export async function countHeldMembers(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(distinct ${heldChanges.userId})::int` }).from(heldChanges);
  return Number(row?.n ?? 0);
}

/** Removes held changes (these ids, or all) and returns them. */
export async function takeHeldChanges(db: Db, ids: readonly number[] | null): Promise<HeldChangeRow[]> {
  if (ids) {
    const out: HeldChangeRow[] = [];
    for (const part of chunks(ids)) out.push(...(await db.delete(heldChanges).where(inArray(heldChanges.id, part)).returning()));
    return out;
  }
  return db.delete(heldChanges).returning();
}

/** Monthly pledges of the grants that are active and give access at `at`, in euro cents, by source and tier (the analytics MRR). */
export async function activePledgesAt(db: Db, at: Date): Promise<{ platform: SubscriptionSource; tier: string; cents: number }[]> {
  const rows = await db
    .select({ platform: memberGrants.source, tier: memberGrants.tier, cents: sql<number>`coalesce(sum(${memberGrants.pledgeAmountCents}), 0)`.mapWith(Number) })
    .from(memberGrants)
    .where(
      and(
        eq(memberGrants.status, 'active'),
        sql`${memberGrants.pledgeAmountCents} > 0`,
        sql`(${memberGrants.expiry} is null or ${memberGrants.expiry} > ${at.toISOString()}::timestamptz)`,
      ),
    )
    .groupBy(memberGrants.source, memberGrants.tier);
  return rows;
}

/** Every change of members' grants in [from, to), oldest first (the analytics flows). */
export function changesBetween(db: Db, from: Date, to: Date): Promise<MemberChangeRow[]> {
  return db
    .select()
    .from(memberChanges)
    .where(and(sql`${memberChanges.at} >= ${from.toISOString()}::timestamptz`, sql`${memberChanges.at} < ${to.toISOString()}::timestamptz`))
    .orderBy(memberChanges.at, memberChanges.id);
}
