import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SubscriptionSource, SubscriptionStatus, Tier } from '../../../contracts/tiers';

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

export interface PlatformSubscribers {
  /** The subscription sync plugs its lookup in here (from its own plugin, at start-up). */
  register(lookup: PlatformSubscriberLookup): void;
  /** The first registered source that knows `email`, or null. */
  find(email: string): Promise<PlatformSubscriber | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    platformSubscribers: PlatformSubscribers;
  }
}

/**
 * The seam for "an email with an active Patreon/BMC subscription but no account gets
 * an account on first sign-in": sign-in asks every registered lookup.
 */
export const platformSubscribersPlugin = fp(async (app: FastifyInstance) => {
  const lookups: PlatformSubscriberLookup[] = [];
  app.decorate('platformSubscribers', {
    register(lookup) {
      lookups.push(lookup);
    },
    async find(email) {
      for (const lookup of lookups) {
        const found = await lookup(email);
        if (found) return found;
      }
      return null;
    },
  } satisfies PlatformSubscribers);
});
