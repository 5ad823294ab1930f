import { Crown, Home, Lock, LogIn, ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { TIER_BENEFITS, type Permissions } from '../../../../contracts/tier-policy';
import { TIER_PRICE_EUR } from '../../../../contracts/tiers';
import { ButtonLink } from '../../../components/ui/button';
import { PageSpinner } from '../../../components/ui/spinner';
import { usePermissions } from '../api/get-permissions';
import { formatLongDate } from '../../../lib/dates';
import { hasTierAccess, tierLabel, type GatedTier } from '../lib/tier-access';
import { GateScreen } from './gate-screen';
import { UpgradeOptions } from './upgrade-options';

export interface RouteGuardProps {
  requireAdmin?: boolean;
  requiredTier?: GatedTier;
  children: ReactNode;
}

/** Guards a page by the server's permission flags (spec §2 "Premium pages", the route guard). */
export function RouteGuard({ requireAdmin = false, requiredTier, children }: RouteGuardProps) {
  const { data, isPending } = usePermissions();
  if (isPending) return <PageSpinner label="Checking your access..." />;
  if (!data?.authenticated) {
    return (
      <GateScreen icon={<Lock className="size-7" />} title="Login Required">
        <p>Please sign in to view this page.</p>
        <ButtonLink to="/simple-auth">
          <LogIn className="size-4" /> Sign In
        </ButtonLink>
      </GateScreen>
    );
  }
  if (requireAdmin && !data.isAdmin) {
    return (
      <GateScreen icon={<ShieldAlert className="size-7" />} title="Admin Access Required" tone="rose">
        <p>This page is for Deep House Radio administrators only.</p>
        <ButtonLink to="/" variant="secondary">
          <Home className="size-4" /> Return Home
        </ButtonLink>
      </GateScreen>
    );
  }
  if (requiredTier && !hasTierAccess(data, requiredTier)) return <UpgradeScreen tier={requiredTier} permissions={data} />;
  return <>{children}</>;
}

function UpgradeScreen({ tier, permissions }: { tier: GatedTier; permissions: Permissions }) {
  const label = tierLabel(tier);
  return (
    <GateScreen icon={<Crown className="size-7" />} title={`${label} Subscription Required`} wide>
      <p>
        This page needs a {label} subscription (€{TIER_PRICE_EUR[tier]}+ a month). Here is what you get:
      </p>
      <ul className="mx-auto grid max-w-md gap-2 text-left">
        {TIER_BENEFITS[tier].map((b) => (
          <li key={b} className="flex items-start gap-2">
            <span aria-hidden className="mt-2 size-1.5 shrink-0 rounded-full bg-aqua-400" />
            <span>{b}</span>
          </li>
        ))}
      </ul>
      <dl className="mx-auto grid max-w-md grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-2xl border border-white/10 bg-white/[0.03] p-4 text-left text-sm">
        <dt className="text-mist-400">Current tier</dt>
        <dd className="font-semibold text-white">{tierLabel(permissions.subscriptionTier)}</dd>
        <dt className="text-mist-400">Status</dt>
        <dd className="font-semibold text-white">
          {permissions.subscriptionStatus}
          {permissions.subscriptionExpired && <span className="ml-1 text-rose-300">(Expired)</span>}
        </dd>
        {permissions.subscriptionExpiry && (
          <>
            <dt className="text-mist-400">Expires</dt>
            <dd className="font-semibold text-white">{formatLongDate(permissions.subscriptionExpiry)}</dd>
          </>
        )}
      </dl>
      <UpgradeOptions />
    </GateScreen>
  );
}
