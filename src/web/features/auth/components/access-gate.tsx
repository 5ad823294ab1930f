import { Crown, Home, Lock, LogIn, ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { AccessPolicy } from '../../../../contracts/access-policy';
import type { Permissions } from '../../../../contracts/tier-policy';
import type { Tier } from '../../../../contracts/tiers';
import { ButtonLink } from '../../../components/ui/button';
import { PageSpinner } from '../../../components/ui/spinner';
import { usePermissions } from '../api/get-permissions';
import { hasTierAccess } from '../lib/tier-access';
import { GateScreen } from './gate-screen';
import { MembershipStatus, TierBenefits } from './membership-status';
import { ConnectPatreonButton } from './supporter-links-card';
import { UpgradeOptions } from './upgrade-options';

export interface AccessGateProps {
  /** The same policy values the server's routes declare (`access.admin`, `access.tier('vip')`, ...). */
  policy: AccessPolicy;
  children: ReactNode;
}

/**
 * The one page gate of the web app: shows `children` when the server's permission flags satisfy
 * `policy`, else the matching screen. It only shows; the server enforces the same policy on the API.
 */
export function AccessGate({ policy, children }: AccessGateProps) {
  const { data, isPending } = usePermissions();
  if (policy.kind === 'public') return <>{children}</>;
  if (isPending) return <PageSpinner label="Checking your access..." />;
  if (!data?.authenticated) return <LoginRequired />;
  if (policy.kind === 'admin' && !data.isAdmin) return <AdminRequired />;
  if (policy.kind === 'tier' && !hasTierAccess(data, policy.tier)) return <UpgradeScreen tier={policy.tier} permissions={data} />;
  return <>{children}</>;
}

function LoginRequired() {
  return (
    <GateScreen icon={<Lock className="size-7" />} title="Login Required">
      <p>Please sign in to view this page.</p>
      <ButtonLink to="/simple-auth">
        <LogIn className="size-4" aria-hidden="true" /> Sign In
      </ButtonLink>
    </GateScreen>
  );
}

function AdminRequired() {
  return (
    <GateScreen icon={<ShieldAlert className="size-7" />} title="Admin Access Required" tone="rose">
      <p>This page is for Deep House Radio administrators only.</p>
      <ButtonLink to="/" variant="secondary">
        <Home className="size-4" aria-hidden="true" /> Return Home
      </ButtonLink>
    </GateScreen>
  );
}

/** The one upgrade screen: what the tier gives, where the member stands, and the two platforms. */
function UpgradeScreen({ tier, permissions }: { tier: Tier; permissions: Permissions }) {
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
