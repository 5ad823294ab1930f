import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  bannedIdentities,
  platformLinks,
  type BannedIdentityRow,
  type Platform,
  type PlatformLinkKind,
  type PlatformLinkRow,
  type PlatformLinkVia,
} from '../../db/schema';

/**
 * The owner of `platform_links`: platform identities (a Patreon user id, a payer email) linked to one
 * account (docs/decisions/0019-supporter-links.md).
 */

const CHUNK = 500;

export interface LinkKey {
  platform: Platform;
  kind: PlatformLinkKind;
  key: string;
}

/** Links `key` to `userId`, moving it from any other account (whoever proved it last owns it). */
export async function linkIdentity(db: Db, link: LinkKey & { userId: string; via: PlatformLinkVia }): Promise<PlatformLinkRow | null> {
  const [previous] = await db
    .select()
    .from(platformLinks)
    .where(and(eq(platformLinks.platform, link.platform), eq(platformLinks.kind, link.kind), eq(platformLinks.key, link.key)));
  await db
    .insert(platformLinks)
    .values({ ...link, createdAt: new Date() })
    .onConflictDoUpdate({
      target: [platformLinks.platform, platformLinks.kind, platformLinks.key],
      set: { userId: link.userId, via: link.via, createdAt: new Date() },
    });
  return previous && previous.userId !== link.userId ? previous : null;
}

/** Removes one member's links of a kind on a platform; returns the removed rows. */
export async function unlinkIdentities(db: Db, userId: string, platform: Platform, kind: PlatformLinkKind, key?: string): Promise<PlatformLinkRow[]> {
  return db
    .delete(platformLinks)
    .where(
      and(
        eq(platformLinks.userId, userId),
        eq(platformLinks.platform, platform),
        eq(platformLinks.kind, kind),
        ...(key === undefined ? [] : [eq(platformLinks.key, key)]),
      ),
    )
    .returning();
}

/** Every link of these members. */
export async function linksOfMembers(db: Db, userIds: readonly string[]): Promise<PlatformLinkRow[]> {
  const out: PlatformLinkRow[] = [];
  for (let i = 0; i < userIds.length; i += CHUNK) {
    out.push(
      ...(await db
        .select()
        .from(platformLinks)
        .where(inArray(platformLinks.userId, userIds.slice(i, i + CHUNK)))),
    );
  }
  return out;
}

/** The links whose key is one of `keys` (Patreon user ids and payer emails together). */
export async function linksWithKeys(db: Db, keys: readonly string[]): Promise<PlatformLinkRow[]> {
  const unique = [...new Set(keys)];
  const out: PlatformLinkRow[] = [];
  for (let i = 0; i < unique.length; i += CHUNK) {
    out.push(
      ...(await db
        .select()
        .from(platformLinks)
        .where(inArray(platformLinks.key, unique.slice(i, i + CHUNK)))),
    );
  }
  return out;
}

/** A subquery of every linked member id (the sync reconciles them all). */
export const linkedMemberIds = () => sql`select ${platformLinks.userId} from ${platformLinks}`;

// ---------------------------------------------------------------- banned identities

/** A platform identity: a payer email or a Patreon user id. */
export interface Identity {
  kind: PlatformLinkKind;
  key: string;
}

const banInForce = (now: Date) => or(isNull(bannedIdentities.expiresAt), gt(bannedIdentities.expiresAt, now));

/** Records the identities of a member just banned, with the ban's reason and end (a new ban replaces the old). */
export async function recordBannedIdentities(
  db: Db,
  bannedUserId: string,
  identities: readonly Identity[],
  ban: { reason: string; expiresAt: Date | null },
): Promise<void> {
  if (!identities.length) return;
  await db
    .insert(bannedIdentities)
    .values(identities.map((i) => ({ kind: i.kind, key: i.key, bannedUserId, reason: ban.reason, expiresAt: ban.expiresAt })))
    .onConflictDoUpdate({
      target: [bannedIdentities.kind, bannedIdentities.key],
      set: { bannedUserId, reason: ban.reason, expiresAt: ban.expiresAt, createdAt: new Date() },
    });
}

/** Drops the identities a member's ban recorded (the ban is lifted). */
export async function clearBannedIdentities(db: Db, bannedUserId: string): Promise<void> {
  await db.delete(bannedIdentities).where(eq(bannedIdentities.bannedUserId, bannedUserId));
}

/** A ban in force on one of these identities, or null. */
export async function identityBanFor(db: Db, identities: readonly Identity[], now: Date = new Date()): Promise<BannedIdentityRow | null> {
  const where = or(...identities.map((i) => and(eq(bannedIdentities.kind, i.kind), eq(bannedIdentities.key, i.key))));
  if (!identities.length || !where) return null;
  const [row] = await db
    .select()
    .from(bannedIdentities)
    .where(and(where, banInForce(now)))
    .limit(1);
  return row ?? null;
}

export async function anyIdentityBanInForce(db: Db, now: Date = new Date()): Promise<boolean> {
  const rows = await db.select({ key: bannedIdentities.key }).from(bannedIdentities).where(banInForce(now)).limit(1);
  return rows.length > 0;
}
