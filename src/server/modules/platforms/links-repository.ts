import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { platformLinks, type Platform, type PlatformLinkKind, type PlatformLinkRow, type PlatformLinkVia } from '../../db/schema';

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
