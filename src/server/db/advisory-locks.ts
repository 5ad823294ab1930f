import { sql, type SQL } from 'drizzle-orm';

/**
 * Every PostgreSQL advisory lock the app takes, one distinct key each, so that one job never waits
 * on another's lock (a subscription sync must not hold up first-admin setup). Add new keys here.
 */
export const ADVISORY_LOCKS = {
  /** Held while an instance applies migrations at start-up (session-scoped). */
  migrations: 724101,
  /** First-admin setup: one admin is created even when two setups race (transaction-scoped). */
  firstAdminSetup: 724102,
  /** The subscription sync: one run at a time across instances (session-scoped try-lock held while it fetches and applies: Database.withTryLock). */
  subscriptionSync: 724103,
  /** Taking admin rights away: two demotions at once cannot leave no admin (transaction-scoped). */
  adminDemotion: 724104,
  /** One member's mix downloads: the daily limit is counted and written under it (transaction-scoped, per member). */
  mixDownloads: 724105,
  /** One member's premium-stream connections: counted and opened under it (transaction-scoped, per member). */
  streamConnections: 724106,
} as const;

export type AdvisoryLock = keyof typeof ADVISORY_LOCKS;

/** Waits for the lock until the surrounding transaction ends. */
export function xactLock(lock: AdvisoryLock): SQL {
  return sql`select pg_advisory_xact_lock(${ADVISORY_LOCKS[lock]})`;
}

/** Waits for the lock on one `id` (a member, a mix) of `lock`'s kind until the surrounding transaction ends. */
export function xactLockOn(lock: AdvisoryLock, id: string): SQL {
  return sql`select pg_advisory_xact_lock(${ADVISORY_LOCKS[lock]}, hashtext(${id}))`;
}
