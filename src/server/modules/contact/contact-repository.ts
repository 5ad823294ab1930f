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

/** The inbox, priority first, newest first: at most INBOX_MAX rows, and how many there are in all. */
export async function listContactMessages(db: Db, status: 'open' | 'handled' | 'all'): Promise<{ rows: ContactMessageRow[]; total: number }> {
  const where = status === 'open' ? isNull(contactMessages.handledAt) : status === 'handled' ? isNotNull(contactMessages.handledAt) : undefined;
  const [rows, [counted]] = await Promise.all([
    db.select().from(contactMessages).where(where).orderBy(desc(contactMessages.priority), desc(contactMessages.createdAt)).limit(INBOX_MAX),
    db.select({ n: count() }).from(contactMessages).where(where),
  ]);
  return { rows, total: counted?.n ?? rows.length };
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

/** Opens a handled message again (handled by mistake, or the sender wrote back); null when there is no such handled message. */
export async function reopen(db: Db, id: string): Promise<ContactMessageRow | null> {
  const [row] = await db
    .update(contactMessages)
    .set({ handledAt: null, handledBy: null })
    .where(and(eq(contactMessages.id, id), isNotNull(contactMessages.handledAt)))
    .returning();
  return row ?? null;
}

export async function findContactMessage(db: Db, id: string): Promise<ContactMessageRow | null> {
  const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id));
  return row ?? null;
}

/** Messages no admin has marked handled yet. */
export async function countUnhandled(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(contactMessages).where(isNull(contactMessages.handledAt));
  return row?.n ?? 0;
}
