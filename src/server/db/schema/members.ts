import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { SubscriptionSource, SubscriptionStatus, Tier } from '../../../contracts/tiers';

/**
 * @owner src/server/modules/members/members-repository.ts
 * @reads src/server/lib/sessions.ts (the signed-in member, one query per request)
 * @reads src/server/modules/news/forum-repository.ts (authors of threads)
 * @reads src/server/modules/profiles/profiles-repository.ts (followers' account ages)
 * @writes bench/admin-scale.ts (100,000 members in one statement)
 * @writes bench/sync-preview.ts (100,000 members in one statement)
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Always stored trimmed and lower-cased. */
    email: text('email').notNull().unique(),
    username: text('username').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    passwordHash: text('password_hash'),
    isAdmin: boolean('is_admin').notNull().default(false),
    subscriptionTier: text('subscription_tier').$type<Tier>().notNull().default('free'),
    subscriptionStatus: text('subscription_status').$type<SubscriptionStatus>().notNull().default('inactive'),
    subscriptionExpiry: timestamp('subscription_expiry', { withTimezone: true }),
    subscriptionSource: text('subscription_source').$type<SubscriptionSource>().notNull().default('admin'),
    /** Euro cents per month. */
    pledgeAmountCents: integer('pledge_amount_cents').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    /**
     * When the member proved the email is theirs (ADR 0013). Null only for self-registered accounts
     * until they follow the verification or a sign-in link; paid tiers never follow an unproven email.
     * Every other way in (admin, import, quick assign, platform sign-in link) vouches for the email.
     */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }).defaultNow(),
    /**
     * Admin user search (members admin): email, username, first and last name joined and lower-cased,
     * kept by PostgreSQL itself. Stored so a trigram match re-checks a plain column, not an expression.
     */
    searchText: text('search_text').generatedAlwaysAs(
      sql.raw(`lower(email || ' ' || username || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, ''))`),
    ),
  },
  (t) => [
    index('users_username_idx').on(sql`lower(${t.username})`),
    // Admin user search (case-insensitive substring over 100,000+ members): pg_trgm GIN index.
    // The pg_trgm extension is created by the first migration; PGlite loads its build (db/client.ts).
    index('users_search_text_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    // Admin list order (newest first).
    index('users_created_at_idx').on(t.createdAt.desc(), t.id),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
