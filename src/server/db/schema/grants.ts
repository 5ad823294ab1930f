import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { SubscriptionSource, SubscriptionStatus, Tier } from '../../../contracts/tiers';
import type { GrantSnapshot, MemberAccessSnapshot } from '../../../contracts/grants';
import { users } from './members';
import { syncRuns } from './platforms';

/**
 * What each source says a member is entitled to (docs/decisions/0023-member-grants-and-bulk-runs.md):
 * one row per (member, source). `admin` is the station's own grant; `patreon` and `buymeacoffee` are
 * written by sync, webhooks, links and imports from the platform records. The member's effective
 * subscription (the subscription_* columns of `users`, which sessions read) is the best of these rows,
 * recomputed in the same transaction as every change.
 * @owner src/server/modules/members/grants-repository.ts
 */
export const memberGrants = pgTable(
  'member_grants',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: text('source').$type<SubscriptionSource>().notNull(),
    tier: text('tier').$type<Tier>().notNull(),
    status: text('status').$type<SubscriptionStatus>().notNull(),
    expiry: timestamp('expiry', { withTimezone: true }),
    /** Euro cents per month. */
    pledgeAmountCents: integer('pledge_amount_cents').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.source] }),
    // The expiry pass looks for grants whose paid time has just run out.
    index('member_grants_expiry_idx').on(t.expiry),
  ],
);

/** A member's first and last name as a change recorded them. */
export interface MemberNamesSnapshot {
  firstName: string | null;
  lastName: string | null;
}

/** Why a member's grants changed: the cause kind and its reference (a run id, a delivery key, an admin id). */
export type MemberChangeCause = 'sync' | 'webhook' | 'import' | 'admin' | 'link' | 'claim' | 'oauth' | 'revert' | 'expiry' | 'confirm' | 'signup';

/**
 * Every change of a member's grants, with the effective subscription before and after: the member's
 * history in the admin, and what a revert restores (`grantsBefore`).
 * @owner src/server/modules/members/grants-repository.ts
 */
export const memberChanges = pgTable(
  'member_changes',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    cause: text('cause').$type<MemberChangeCause>().notNull(),
    /** The webhook delivery key, the admin's id, the run that was reverted... */
    causeRef: text('cause_ref'),
    /** The bulk run (sync, import, webhook delivery, revert, confirmation) the change belongs to. */
    runId: integer('run_id').references(() => syncRuns.id, { onDelete: 'set null' }),
    before: jsonb('before').$type<MemberAccessSnapshot>().notNull(),
    after: jsonb('after').$type<MemberAccessSnapshot>().notNull(),
    grantsBefore: jsonb('grants_before').$type<GrantSnapshot[]>().notNull(),
    grantsAfter: jsonb('grants_after').$type<GrantSnapshot[]>().notNull(),
    reason: text('reason'),
    /** The member's names before and after, when the change renamed them (an import row): a revert restores them too. */
    namesBefore: jsonb('names_before').$type<MemberNamesSnapshot>(),
    namesAfter: jsonb('names_after').$type<MemberNamesSnapshot>(),
  },
  (t) => [index('member_changes_user_idx').on(t.userId, t.id), index('member_changes_run_idx').on(t.runId)],
);

/**
 * Losses a scheduled sync did not apply because they would have ended the subscriptions of many
 * members at once: one row per (member, source) until an admin confirms or dismisses it.
 * @owner src/server/modules/members/grants-repository.ts
 */
export const heldChanges = pgTable(
  'held_changes',
  {
    id: serial('id').primaryKey(),
    runId: integer('run_id').references(() => syncRuns.id, { onDelete: 'set null' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: text('source').$type<SubscriptionSource>().notNull(),
    /** The grant when the change was held: confirming applies `next` only while it is still this. */
    current: jsonb('current').$type<GrantSnapshot | null>(),
    next: jsonb('next').$type<GrantSnapshot | null>(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('held_changes_member_source_idx').on(t.userId, t.source)],
);

export type MemberGrantRow = typeof memberGrants.$inferSelect;
export type MemberChangeRow = typeof memberChanges.$inferSelect;
export type HeldChangeRow = typeof heldChanges.$inferSelect;
