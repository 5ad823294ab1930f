import { z } from 'zod';

/** Tier ladder: free < dhr1 < dhr2 < vip. */
export const TIERS = ['free', 'dhr1', 'dhr2', 'vip'] as const;
export const tierSchema = z.enum(TIERS);
export type Tier = z.infer<typeof tierSchema>;

export const SUBSCRIPTION_STATUSES = ['active', 'inactive', 'cancelled', 'cancelled_with_access', 'expired'] as const;
export const subscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES);
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

export const SUBSCRIPTION_SOURCES = ['admin', 'patreon', 'buymeacoffee'] as const;
export const subscriptionSourceSchema = z.enum(SUBSCRIPTION_SOURCES);
export type SubscriptionSource = z.infer<typeof subscriptionSourceSchema>;

/** Monthly prices in euro. */
export const TIER_PRICE_EUR: Record<Tier, number> = { free: 0, dhr1: 3, dhr2: 5, vip: 10 };

export const TIER_LABEL: Record<Tier, string> = { free: 'Free', dhr1: 'DHR1', dhr2: 'DHR2', vip: 'VIP' };

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
export const memberSummarySchema = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  subscriptionTier: tierSchema,
  subscriptionStatus: subscriptionStatusSchema,
  /** ISO date-time, or null for no expiry. */
  subscriptionExpiry: z.string().nullable(),
  subscriptionSource: subscriptionSourceSchema,
  isAdmin: z.boolean(),
});
export type MemberSummary = z.infer<typeof memberSummarySchema>;
