import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './members';

export type Platform = 'patreon' | 'buymeacoffee';

/**
 * What Patreon / Buy Me a Coffee last told us about one payer, keyed by (platform, email).
 * Kept whether or not the email has an account: sign-in by link creates the account with this entitlement.
 * The mapped tier/status is computed from these fields at read time (grace periods depend on "now").
 * @owner src/server/modules/platforms/platforms-repository.ts
 */
export const platformSubscriptions = pgTable(
  'platform_subscriptions',
  {
    platform: text('platform').$type<Platform>().notNull(),
    /** Trimmed, lower-cased. */
    email: text('email').notNull(),
    /** Patreon member id or BMC subscription id. */
    externalId: text('external_id'),
    /** Patreon user id (the member's relationships.user): a Connect-Patreon link matches by it before the email. */
    platformUserId: text('platform_user_id'),
    fullName: text('full_name'),
    /** Patreon patron_status (active_patron | declined_patron | former_patron) or BMC: active | cancelled. */
    platformStatus: text('platform_status'),
    /** Euro cents per month the payer is entitled to. */
    amountCents: integer('amount_cents').notNull().default(0),
    /** Patreon last_charge_date / next_charge_date / last_charge_status. */
    lastChargeAt: timestamp('last_charge_at', { withTimezone: true }),
    nextChargeAt: timestamp('next_charge_at', { withTimezone: true }),
    lastChargeStatus: text('last_charge_status'),
    /** BMC subscription_current_period_end. */
    periodEndAt: timestamp('period_end_at', { withTimezone: true }),
    /** BMC subscription_is_cancelled / subscription_is_cancelled_at_period_end / subscription_cancelled_on. */
    isCancelled: boolean('is_cancelled').notNull().default(false),
    cancelledAtPeriodEnd: boolean('cancelled_at_period_end').notNull().default(false),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** The platform's own record, as received (for support questions). */
    raw: jsonb('raw').$type<Record<string, unknown>>().notNull().default({}),
    /** 'sync' or the webhook event that wrote the row last. */
    lastEvent: text('last_event').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.platform, t.email] }),
    index('platform_subs_email_idx').on(t.email),
    index('platform_subs_user_id_idx').on(t.platformUserId),
  ],
);

/**
 * Webhook deliveries already applied: a replay (same event id, or same body) is acknowledged and ignored.
 * @owner src/server/modules/platforms/platforms-repository.ts
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    platform: text('platform').$type<Platform>().notNull(),
    /** BMC event_id when present, else SHA-256 of event name + raw body. */
    deliveryKey: text('delivery_key').notNull(),
    event: text('event').notNull(),
    email: text('email'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.platform, t.deliveryKey] }), index('webhook_deliveries_time_idx').on(t.receivedAt)],
);

export interface SyncPlatformOutcome {
  platform: Platform;
  /** False when the platform was not configured and so not asked. */
  attempted: boolean;
  ok: boolean;
  fetched: number;
  error: string | null;
  /** Records that feed an account / active records that feed none / members whose access changed (absent on runs before the sync log). */
  matched?: number;
  unmatched?: number;
  changed?: number;
  /** Listed supporters with access (a later listing that drops more than 20 % of them is held). */
  active?: number;
  /** Why this listing's losses were held for review (it dropped many supporters). */
  held?: string | null;
}

/** What started a bulk run: the platform sync (by an admin or the timer), a webhook delivery, a CSV import, a revert, or an admin confirming held changes. */
export type SyncLogTrigger = 'manual' | 'scheduled' | 'webhook' | 'import' | 'revert' | 'confirm';

/** One line of a run's log: a member whose access changed, an active payer matching no account, or what a webhook did. */
export interface SyncLogEntry {
  kind: 'changed' | 'unmatched' | 'webhook';
  /** The platform; for changes, the source of the grant that decides the member's access (admin too). */
  platform: Platform | 'admin';
  /** The payer email on the platform. */
  email: string;
  userId?: string | null;
  /** The member's email when it differs from the payer's. */
  memberEmail?: string | null;
  /** "vip active (patreon)" before and after, for changes. */
  from?: string;
  to?: string;
  /** What happened, in words (webhooks: applied, duplicate, stale, ignored). */
  note?: string;
}

/**
 * One run of the platform sync (manual or scheduled) or one webhook delivery: the sync log. The
 * dashboard's "last sync result" reads the latest sync (not webhook) run.
 * @owner src/server/modules/platforms/platforms-repository.ts
 */
export const syncRuns = pgTable(
  'sync_runs',
  {
    id: serial('id').primaryKey(),
    trigger: text('trigger').$type<SyncLogTrigger>().notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }).notNull(),
    ok: boolean('ok').notNull(),
    updated: integer('updated').notNull(),
    platforms: jsonb('platforms').$type<SyncPlatformOutcome[]>().notNull(),
    errors: jsonb('errors').$type<string[]>().notNull(),
    /** Changes, unmatched payers and webhook outcomes (capped: see SYNC_LOG_MAX_ENTRIES). */
    details: jsonb('details').$type<SyncLogEntry[]>().notNull().default([]),
    /** The admin who started it (manual sync, import, revert, confirmation); null for the timer and webhooks. */
    startedBy: uuid('started_by'),
    /** Set once the run was reverted (a run is reverted at most once). */
    revertedAt: timestamp('reverted_at', { withTimezone: true }),
    revertedByRun: integer('reverted_by_run'),
    /**
     * 'applying' while a bulk run writes its chunks (finished_at moves with each chunk), 'done' once
     * complete, 'interrupted' when it stopped part-way (docs/decisions/0023-member-grants-and-bulk-runs.md).
     */
    state: text('state').$type<SyncRunState>().notNull().default('done'),
  },
  (t) => [index('sync_runs_finished_idx').on(t.finishedAt)],
);

export type PlatformSubscriptionRow = typeof platformSubscriptions.$inferSelect;
export type NewPlatformSubscriptionRow = typeof platformSubscriptions.$inferInsert;
export type SyncRunRow = typeof syncRuns.$inferSelect;
export type SyncRunState = 'applying' | 'done' | 'interrupted';

/** How a platform identity is keyed: Patreon's user id (Connect Patreon) or a payer email. */
export type PlatformLinkKind = 'user_id' | 'email';
/** Who made the link: the member by OAuth or an emailed code, or an admin from the reconciliation page. */
export type PlatformLinkVia = 'oauth' | 'claim' | 'admin';

/**
 * Supporters who pay under another identity than their DHR email (docs/decisions/0019-supporter-links.md):
 * a platform identity linked to one account. A link wins over an email match in sync and webhooks.
 * @owner src/server/modules/platforms/links-repository.ts
 */
export const platformLinks = pgTable(
  'platform_links',
  {
    platform: text('platform').$type<Platform>().notNull(),
    kind: text('kind').$type<PlatformLinkKind>().notNull(),
    /** Patreon user id, or a lower-cased payer email. */
    key: text('key').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    via: text('via').$type<PlatformLinkVia>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.platform, t.kind, t.key] }), index('platform_links_user_idx').on(t.userId)],
);

export type PlatformLinkRow = typeof platformLinks.$inferSelect;

/**
 * Platform identities of members banned from commenting, recorded when the ban is made: a payer
 * email or a Patreon user id. An account that claims or links one of them later is banned too, even
 * after the banned account dropped the link or was deleted (comment-rules' activeBan). Lifting the
 * ban deletes its identities.
 * @owner src/server/modules/platforms/links-repository.ts
 */
export const bannedIdentities = pgTable(
  'banned_identities',
  {
    kind: text('kind').$type<PlatformLinkKind>().notNull(),
    /** A lower-cased payer email, or a Patreon user id. */
    key: text('key').notNull(),
    /** The member whose ban recorded it (null once that account is deleted: the ban on the identity stays). */
    bannedUserId: uuid('banned_user_id').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    /** The ban's end; null = permanent. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.key] }), index('banned_identities_user_idx').on(t.bannedUserId)],
);

export type BannedIdentityRow = typeof bannedIdentities.$inferSelect;
