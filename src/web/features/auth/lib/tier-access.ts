import type { Permissions } from '../../../../contracts/tier-policy';
import type { Tier } from '../../../../contracts/tiers';

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
