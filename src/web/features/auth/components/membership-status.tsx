import type { Permissions } from '../../../../contracts/tier-policy';
import { TIER_TABLE } from '../../../../contracts/tier-table';
import type { Tier } from '../../../../contracts/tiers';
import { TierBadge } from '../../../components/ui/badge';
import { cn } from '../../../lib/cn';
import { formatLongDate } from '../../../lib/dates';
import { tierPrice } from '../../../lib/tier-prices';

/** Where a member stands: tier (marked '(Expired)' when it lapsed), status and expiry date. */
export function MembershipStatus({ permissions, className }: { permissions: Permissions; className?: string }) {
  return (
    <dl
      className={cn(
        'grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2 rounded-2xl border border-white/10 bg-white/[0.03] p-4 text-left text-sm',
        className,
      )}
    >
      <dt className="text-mist-400">Current tier</dt>
      <dd>
        <TierBadge tier={permissions.subscriptionTier} expired={permissions.subscriptionExpired} />
      </dd>
      <dt className="text-mist-400">Status</dt>
      <dd className="font-semibold text-white" data-testid="membership-status">
        {/* A free account has no subscription to be 'inactive': it is a free membership. */}
        {permissions.subscriptionTier === 'free' ? 'Free member' : permissions.subscriptionStatus}
        {permissions.subscriptionExpired && <span className="ml-1 text-rose-300">(Expired)</span>}
      </dd>
      {permissions.subscriptionExpiry && (
        <>
          <dt className="text-mist-400">{permissions.subscriptionExpired ? 'Expired' : 'Expires'}</dt>
          <dd className="font-semibold text-white">{formatLongDate(permissions.subscriptionExpiry)}</dd>
        </>
      )}
    </dl>
  );
}

/** The benefits of a paid tier with its monthly price. */
export function TierBenefits({ tier, className }: { tier: Tier; className?: string }) {
  if (tier === 'free') return null;
  return (
    <div className={cn('text-left', className)}>
      <p className="text-sm font-semibold text-white">From {tierPrice(tier)} a month:</p>
      <ul className="mt-2 grid gap-2">
        {TIER_TABLE[tier].benefits.map((b) => (
          <li key={b} className="flex items-start gap-2">
            <span aria-hidden="true" className="mt-2 size-1.5 shrink-0 rounded-full bg-aqua-400" />
            <span>{b}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
