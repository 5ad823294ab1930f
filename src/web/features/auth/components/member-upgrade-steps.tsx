import { Link } from 'react-router';
import type { Permissions } from '../../../../contracts/tier-policy';
import { MembershipStatus } from './membership-status';
import { ConnectPatreonButton } from './supporter-links-card';
import { UPGRADE_APPLIES_AT_ONCE, UpgradeOptions } from './upgrade-options';

/** The upgrade screen's part for a signed-in member below the tier (tier-wall.tsx): where they stand and the two platforms. */
export default function MemberUpgradeSteps({ permissions }: { permissions: Permissions }) {
  return (
    <>
      <MembershipStatus permissions={permissions} className="mx-auto max-w-md" />
      <p className="text-xs text-mist-400">{UPGRADE_APPLIES_AT_ONCE}</p>
      <UpgradeOptions />
      <div className="space-y-3 border-t border-white/10 pt-5">
        <p className="text-sm text-mist-300">
          Already paying with another email?{' '}
          <Link to="/auth" className="font-semibold text-aqua-300 hover:text-aqua-400">
            Link your payment
          </Link>
        </p>
        <ConnectPatreonButton />
      </div>
    </>
  );
}
