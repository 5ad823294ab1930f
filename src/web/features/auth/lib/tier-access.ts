import type { Permissions } from '../../../../contracts/tier-policy';
import { TIER_LABEL, type Tier } from '../../../../contracts/tiers';

export type GatedTier = Exclude<Tier, 'free'>;

/** A gate's required tier in any case; 'premium' means dhr2 (spec §6). Undefined when unknown. */
export function normalizeRequiredTier(value: string): GatedTier | undefined {
  const v = value.trim().toLowerCase();
  if (v === 'premium') return 'dhr2';
  if (v === 'dhr1' || v === 'dhr2' || v === 'vip') return v;
  return undefined;
}

/** Gates use the server's flags, never their own hierarchy; admins pass every tier check. */
export function hasTierAccess(p: Permissions, tier: GatedTier): boolean {
  if (p.isAdmin) return true;
  if (tier === 'dhr1') return p.canAccessDHR1;
  if (tier === 'dhr2') return p.canAccessDHR2;
  return p.canAccessVIP;
}

export function tierLabel(tier: string): string {
  return TIER_LABEL[tier as Tier] ?? tier;
}

