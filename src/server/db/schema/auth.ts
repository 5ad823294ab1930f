import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './members';

/**
 * payer_claim: a code proving a Buy Me a Coffee payer email; oauth_state: Connect Patreon's state, bound to the session;
 * account_delete: the emailed confirmation of deleting an account; email_change: sent to the new address, which is the row's email;
 * email_change_old: sent to the current address of a member without a password, whose move needs both links.
 */
export type AuthTokenKind =
  | 'login_link'
  | 'login_code'
  | 'password_reset'
  | 'password_code'
  | 'email_verify'
  | 'payer_claim'
  | 'oauth_state'
  | 'account_delete'
  | 'email_change'
  | 'email_change_old';

/**
 * One-time proofs sent by email: sign-in links and codes, password reset links, email verification
 * links and set-password codes.
 * Only a SHA-256 of the secret is stored; `usedAt` makes each single use.
 * @owner src/server/modules/auth/auth-tokens.ts
 * @writes src/server/lib/sessions.ts (credentialsChanged: a member's outstanding tokens end with their credentials)
 */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<AuthTokenKind>().notNull(),
    /** Lower-cased email the proof was sent to (a link may precede the account: platform subscribers). */
    email: text('email').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    /** Wrong guesses so far (codes only). */
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('auth_tokens_email_kind_idx').on(t.email, t.kind), index('auth_tokens_expires_idx').on(t.expiresAt)],
);

/**
 * Fixed-window counters for rate limits, in the database so every instance shares them.
 * @owner src/server/lib/rate-limit.ts
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_reset_idx').on(t.resetAt)],
);

export type AuthTokenRow = typeof authTokens.$inferSelect;

/**
 * Server-side sessions: the cookie carries a random id, the row holds its SHA-256 (docs/decisions/0007-accounts-sign-in-and-rate-limits.md).
 * @owner src/server/lib/sessions.ts
 */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export type SessionRow = typeof sessions.$inferSelect;
