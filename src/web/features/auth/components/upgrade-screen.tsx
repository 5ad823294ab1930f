import { Crown } from 'lucide-react';
import { Link } from 'react-router';
import type { Permissions } from '../../../../contracts/tier-policy';
import type { Tier } from '../../../../contracts/tiers';
import { GateScreen } from './gate-screen';
import { MembershipStatus, TierBenefits } from './membership-status';
import { ConnectPatreonButton } from './supporter-links-card';
import { UpgradeOptions } from './upgrade-options';

/** The one upgrade screen: what the tier gives, where the member stands, and the two platforms. */
export default function UpgradeScreen({ tier, permissions }: { tier: Tier; permissions: Permissions }) {
  return (
    <GateScreen icon={<Crown className="size-7" />} title={`${tierName(tier)} Subscription Required`} wide>
      <p>This page needs a {tierName(tier)} subscription. Here is what you get:</p>
      <TierBenefits tier={tier} className="mx-auto max-w-md" />
      <MembershipStatus permissions={permissions} className="mx-auto max-w-md" />
      <p className="text-xs text-mist-400">Use the same email as your DHR account and the upgrade applies when you next sign in.</p>
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
    </GateScreen>
  );
}

function tierName(tier: Tier): string {
  return tier === 'free' ? 'Free' : tier.toUpperCase();
}
