import { boolean, integer, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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

/**
 * @owner src/server/modules/shop/shop-repository.ts
 * @writes src/server/db/seed/seed.ts (the demo catalogue)
 */
export const shopProducts = pgTable('shop_products', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  price: numeric('price', { precision: 10, scale: 2, mode: 'number' }).notNull(),
  originalPrice: numeric('original_price', { precision: 10, scale: 2, mode: 'number' }),
  category: text('category').notNull(),
  images: jsonb('images').$type<string[]>().notNull().default([]),
  description: text('description').notNull().default(''),
  sizes: jsonb('sizes').$type<string[]>(),
  colors: jsonb('colors').$type<string[]>(),
  rating: numeric('rating', { precision: 2, scale: 1, mode: 'number' }).notNull().default(5),
  reviews: integer('reviews').notNull().default(0),
  inStock: boolean('in_stock').notNull().default(true),
  featured: boolean('featured').notNull().default(false),
  tags: jsonb('tags').$type<string[]>().notNull().default([]),
  isActive: boolean('is_active').notNull().default(true),
  redbubbleUrl: text('redbubble_url'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
