import type { SubscriptionSource, SubscriptionStatus, Tier } from '../../../contracts/tiers';
import type { Db } from '../../db/client';

/** A paying supporter known to Patreon or Buy Me a Coffee who may not have a DHR account yet. */
export interface PlatformSubscriber {
  email: string;
  tier: Tier;
  status: SubscriptionStatus;
  expiry: Date | null;
  source: Exclude<SubscriptionSource, 'admin'>;
  pledgeAmountCents: number;
  firstName?: string | null;
  lastName?: string | null;
  username?: string | null;
}

/** Looks an email (lower-cased) up in one platform's synced data; null when that platform does not know it. */
export type PlatformSubscriberLookup = (email: string) => Promise<PlatformSubscriber | null>;

/** Writes the platforms' stored records for `email` onto its member (the sync's reconcile). */
export type PlatformEntitlementApplier = (db: Db, email: string) => Promise<void>;

export interface PlatformSubscribers {
  /** The subscription sync plugs its lookup (and how to apply a record) in here, from its own plugin at start-up. */
  register(lookup: PlatformSubscriberLookup, apply?: PlatformEntitlementApplier): void;
  /** The first registered source that knows `email`, or null. */
  find(email: string): Promise<PlatformSubscriber | null>;
  /**
   * Applies what the platforms hold for `email` to its member. Sync and webhooks skip unverified
   * accounts (ADR 0013); verification calls this so a stored pledge takes effect at once.
   */
  applyTo(db: Db, email: string): Promise<void>;
}

/**
 * The seam for "an email with an active Patreon/BMC subscription but no account gets
 * an account on first sign-in": sign-in asks every registered lookup. Made once by the composition
 * root (modules/index.ts); the platforms module registers its lookups here without auth importing it.
 */
export class PlatformSubscriberRegistry implements PlatformSubscribers {
  private readonly lookups: PlatformSubscriberLookup[] = [];
  private readonly appliers: PlatformEntitlementApplier[] = [];

  register(lookup: PlatformSubscriberLookup, apply?: PlatformEntitlementApplier): void {
    this.lookups.push(lookup);
    if (apply) this.appliers.push(apply);
  }

  async applyTo(db: Db, email: string): Promise<void> {
    for (const apply of this.appliers) await apply(db, email);
  }

  async find(email: string): Promise<PlatformSubscriber | null> {
    for (const lookup of this.lookups) {
      const found = await lookup(email);
      if (found) return found;
    }
    return null;
  }
}
