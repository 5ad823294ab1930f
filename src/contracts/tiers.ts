/**
 * Tier, status and source values and their pure rules, free of zod so the web bundle can import
 * them; the zod schemas built on them live in member-schemas.ts. Each tier's name, price and
 * benefits are in tier-table.ts.
 */

/** Tier ladder: free < dhr1 < dhr2 < vip. */
export const TIERS = ['free', 'dhr1', 'dhr2', 'vip'] as const;
export type Tier = (typeof TIERS)[number];

export const SUBSCRIPTION_STATUSES = ['active', 'inactive', 'cancelled', 'cancelled_with_access', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const SUBSCRIPTION_SOURCES = ['admin', 'patreon', 'buymeacoffee'] as const;
export type SubscriptionSource = (typeof SUBSCRIPTION_SOURCES)[number];

/** Accepts 'VIP', 'Dhr1', ' free ' ...; undefined when not a tier. */
export function parseTier(value: unknown): Tier | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim().toLowerCase();
  return (TIERS as readonly string[]).includes(v) ? (v as Tier) : undefined;
}

export function tierRank(tier: Tier): number {
  return TIERS.indexOf(tier);
}

/** The fields every view of a member shares (the auth user and the admin user extend it). */
export interface MemberSummary {
  id: string;
  email: string;
  username: string;
  firstName: string | null;
  lastName: string | null;
  subscriptionTier: Tier;
  subscriptionStatus: SubscriptionStatus;
  /** ISO date-time, or null for no expiry. */
  subscriptionExpiry: string | null;
  subscriptionSource: SubscriptionSource;
  isAdmin: boolean;
}
