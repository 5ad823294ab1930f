import { and, eq, gt, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { newsletterSubscribers, type NewsletterSubscriberRow } from '../../db/schema';

/** Starts (or restarts) the opt-in of `email` with a new confirmation secret; a confirmed address is left as it is (null). */
export async function requestOptIn(db: Db, email: string, confirmTokenHash: string, expiresAt: Date): Promise<NewsletterSubscriberRow | null> {
  const rows = await db
    .insert(newsletterSubscribers)
    .values({ email, status: 'pending', confirmTokenHash, confirmExpiresAt: expiresAt })
    .onConflictDoUpdate({
      target: newsletterSubscribers.email,
      set: { status: 'pending', confirmTokenHash, confirmExpiresAt: expiresAt },
      setWhere: ne(newsletterSubscribers.status, 'confirmed'),
    })
    .returning();
  return rows[0] ?? null;
}

/** Confirms the address whose live confirmation secret hashes to `hash`, and sets its unsubscribe secret. */
export async function confirmOptIn(db: Db, hash: string, unsubscribeTokenHash: string, now: Date): Promise<NewsletterSubscriberRow | null> {
  const rows = await db
    .update(newsletterSubscribers)
    .set({ status: 'confirmed', confirmedAt: now, confirmTokenHash: null, confirmExpiresAt: null, unsubscribeTokenHash, unsubscribedAt: null })
    .where(and(eq(newsletterSubscribers.confirmTokenHash, hash), gt(newsletterSubscribers.confirmExpiresAt, now)))
    .returning();
  return rows[0] ?? null;
}

export async function unsubscribe(db: Db, unsubscribeTokenHash: string, now: Date): Promise<NewsletterSubscriberRow | null> {
  const rows = await db
    .update(newsletterSubscribers)
    .set({ status: 'unsubscribed', unsubscribedAt: now, unsubscribeTokenHash: null })
    .where(eq(newsletterSubscribers.unsubscribeTokenHash, unsubscribeTokenHash))
    .returning();
  return rows[0] ?? null;
}
