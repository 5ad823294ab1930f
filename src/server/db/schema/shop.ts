import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export type NewsletterStatus = 'pending' | 'confirmed' | 'unsubscribed';

/**
 * The shop's newsletter list, double opt-in: an address is only mailed once its owner followed the
 * confirmation link. Only hashes of the confirmation and unsubscribe secrets are stored.
 * @owner src/server/modules/shop/newsletter-repository.ts
 */
export const newsletterSubscribers = pgTable('newsletter_subscribers', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Lower-cased. */
  email: text('email').notNull().unique(),
  status: text('status').$type<NewsletterStatus>().notNull().default('pending'),
  confirmTokenHash: text('confirm_token_hash').unique(),
  confirmExpiresAt: timestamp('confirm_expires_at', { withTimezone: true }),
  unsubscribeTokenHash: text('unsubscribe_token_hash').unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
});

export type NewsletterSubscriberRow = typeof newsletterSubscribers.$inferSelect;
