import { and, count, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contactMessages, type ContactMessageRow } from '../../db/schema';

/** The one owner of `contact_messages` (docs/conventions.md). */

export async function insertContactMessage(
  db: Db,
  values: { name: string; email: string; subject: string | null; message: string; userId: string | null; priority: boolean },
): Promise<ContactMessageRow> {
  const [row] = await db.insert(contactMessages).values(values).returning();
  if (!row) throw new Error('contact insert returned nothing');
  return row;
}

const INBOX_MAX = 500;

/** The inbox, priority first, newest first. */
export async function listContactMessages(db: Db, status: 'open' | 'handled' | 'all'): Promise<ContactMessageRow[]> {
  const where = status === 'open' ? isNull(contactMessages.handledAt) : status === 'handled' ? isNotNull(contactMessages.handledAt) : undefined;
  return db.select().from(contactMessages).where(where).orderBy(desc(contactMessages.priority), desc(contactMessages.createdAt)).limit(INBOX_MAX);
}

/** Marks an open message handled; null when there is no such open message. */
export async function markHandled(db: Db, id: string, adminId: string): Promise<ContactMessageRow | null> {
  const [row] = await db
    .update(contactMessages)
    .set({ handledAt: new Date(), handledBy: adminId })
    .where(and(eq(contactMessages.id, id), isNull(contactMessages.handledAt)))
    .returning();
  return row ?? null;
}

/** Messages no admin has marked handled yet. */
export async function countUnhandled(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(contactMessages).where(isNull(contactMessages.handledAt));
  return row?.n ?? 0;
}
