import { and, desc, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chatMembers, chatMessages } from '../../db/schema';

export type ChatMessageRow = typeof chatMessages.$inferSelect;
type NewChatMessageRow = typeof chatMessages.$inferInsert;
export type ChatMemberRow = typeof chatMembers.$inferSelect;

/**
 * The last `limit` messages of a chat, newest first: the shown ones, and the held ones of `heldOf`
 * (a member's own) or every held one (`allHeld`, moderators).
 */
export async function recentMessages(db: Db, channel: string, limit: number, heldOf: string | null, allHeld: boolean): Promise<ChatMessageRow[]> {
  const visible = allHeld ? undefined : heldOf ? or(eq(chatMessages.status, 'shown'), eq(chatMessages.userId, heldOf)) : eq(chatMessages.status, 'shown');
  return db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.channel, channel), visible))
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(limit);
}

export async function deleteMessage(db: Db, id: string): Promise<ChatMessageRow | null> {
  const [row] = await db.delete(chatMessages).where(eq(chatMessages.id, id)).returning();
  return row ?? null;
}

/** Shows a held message; null when it is gone or was not held. */
export async function showMessage(db: Db, id: string): Promise<ChatMessageRow | null> {
  const [row] = await db
    .update(chatMessages)
    .set({ status: 'shown' })
    .where(and(eq(chatMessages.id, id), eq(chatMessages.status, 'held')))
    .returning();
  return row ?? null;
}

/** Held messages of every chat, oldest first (the moderation queue). */
export async function heldMessages(db: Db, limit: number): Promise<ChatMessageRow[]> {
  return db.select().from(chatMessages).where(eq(chatMessages.status, 'held')).orderBy(chatMessages.createdAt, chatMessages.id).limit(limit);
}

/** How many messages wait for a moderator, in every chat. */
export async function countHeldMessages(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(chatMessages)
    .where(eq(chatMessages.status, 'held'));
  return Number(row?.n ?? 0);
}

/** The member's last message in any chat (the repeat rule of the link hold). */
export async function lastMessageOf(db: Db, userId: string): Promise<ChatMessageRow | null> {
  const [row] = await db.select().from(chatMessages).where(eq(chatMessages.userId, userId)).orderBy(desc(chatMessages.createdAt)).limit(1);
  return row ?? null;
}

/** Deletes messages older than `before`; returns how many went. */
export async function deleteMessagesBefore(db: Db, before: Date): Promise<number> {
  const rows = await db.delete(chatMessages).where(lt(chatMessages.createdAt, before)).returning({ id: chatMessages.id });
  return rows.length;
}

export async function findChatMember(db: Db, userId: string): Promise<ChatMemberRow | null> {
  const [row] = await db.select().from(chatMembers).where(eq(chatMembers.userId, userId)).limit(1);
  return row ?? null;
}

/**
 * Posts a message and records the post on its member in one statement (one round trip, one
 * commit). With `notAfter` it is slow mode too: nothing is written when the member posted after
 * `notAfter`, and null is returned (two posts racing: one wins). Without it (members who skip slow
 * mode) the post is always recorded.
 */
export async function postWithSlot(
  db: Db,
  message: NewChatMessageRow & { userId: string; createdAt: Date },
  notAfter: Date | null,
): Promise<ChatMessageRow | null> {
  const slot = db.$with('slot').as(
    db
      .insert(chatMembers)
      .values({ userId: message.userId, lastPostAt: message.createdAt })
      .onConflictDoUpdate({
        target: chatMembers.userId,
        set: { lastPostAt: message.createdAt },
        ...(notAfter ? { setWhere: or(isNull(chatMembers.lastPostAt), lte(chatMembers.lastPostAt, sql`${notAfter.toISOString()}::timestamptz`)) } : {}),
      })
      .returning({ userId: chatMembers.userId }),
  );
  const [row] = await db
    .with(slot)
    .insert(chatMessages)
    .select((qb) =>
      qb
        .select({
          id: sql<string>`gen_random_uuid()`.as('id'),
          channel: sql<string>`${message.channel}::text`.as('channel'),
          userId: slot.userId,
          authorName: sql<string>`${message.authorName}::text`.as('author_name'),
          authorTier: sql<string>`${message.authorTier}::text`.as('author_tier'),
          supporter: sql<boolean>`${message.supporter ?? false}::boolean`.as('supporter'),
          authorIsAdmin: sql<boolean>`${message.authorIsAdmin ?? false}::boolean`.as('author_is_admin'),
          text: sql<string>`${message.text}::text`.as('text'),
          status: sql<string>`${message.status}::text`.as('status'),
          createdAt: sql<Date>`${message.createdAt.toISOString()}::timestamptz`.as('created_at'),
        })
        .from(slot),
    )
    .returning();
  return row ?? null;
}

export async function setMute(db: Db, userId: string, until: Date, by: string): Promise<void> {
  await db
    .insert(chatMembers)
    .values({ userId, mutedUntil: until, mutedBy: by })
    .onConflictDoUpdate({ target: chatMembers.userId, set: { mutedUntil: until, mutedBy: by } });
}

/** Every message the member wrote that is still kept, oldest first (the member's own data export). */
export function messagesBy(db: Db, userId: string): Promise<ChatMessageRow[]> {
  return db.select().from(chatMessages).where(eq(chatMessages.userId, userId)).orderBy(chatMessages.createdAt, chatMessages.id);
}

/** A deleted account's messages stay until they expire, under `name` and no longer tied to anyone. */
export async function anonymiseChatAuthor(db: Db, userId: string, name: string): Promise<void> {
  await db.update(chatMessages).set({ authorName: name, userId: null }).where(eq(chatMessages.userId, userId));
}
