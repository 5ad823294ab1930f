import type { Permissions } from '../../../../contracts/tier-policy';
import { TIER_TABLE, type TierRow } from '../../../../contracts/tier-table';
import { TIERS, type Tier } from '../../../../contracts/tiers';

/**
 * Whether the server's flags grant `tier`. Gates use the flags, never their own hierarchy, so an
 * expired member is refused exactly as the API refuses them; admins pass every tier check.
 */
export function hasTierAccess(p: Permissions, tier: Tier): boolean {
  if (tier === 'free' || p.isAdmin) return true;
  if (tier === 'dhr1') return p.canAccessDHR1;
  if (tier === 'dhr2') return p.canAccessDHR2;
  return p.canAccessVIP;
}

/** The highest tier whose flags the server grants: free for visitors and lapsed members, the top tier for admins. */
export function grantedTier(p: Permissions): Tier {
  if (!p.authenticated) return 'free';
  return [...TIERS].reverse().find((t) => hasTierAccess(p, t)) ?? 'free';
}

/** The tier-table row of the member's granted tier: what the page may show them (adFree, ...). */
export function grantedBenefits(p: Permissions): TierRow {
  return TIER_TABLE[grantedTier(p)];
}
