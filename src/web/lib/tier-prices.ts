import { TIER_TABLE } from '../../contracts/tier-table';
import type { Tier } from '../../contracts/tiers';
import { formatPrice } from './numbers';

/** A tier's monthly price as the pages show it: '€10'. */
export function tierPrice(tier: Tier): string {
  return formatPrice(TIER_TABLE[tier].priceEur);
}

/** The monthly pledge that buys a tier, from its pledge minimum: '€10+' (the free tier: '€0'). */
export function tierBand(tier: Tier): string {
  const cents = TIER_TABLE[tier].pledgeMinCents;
  return cents > 0 ? `${formatPrice(cents / 100)}+` : formatPrice(0);
}
