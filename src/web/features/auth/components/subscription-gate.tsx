import { AlertTriangle, Lock, LogIn, Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { TIER_BENEFITS } from '../../../../contracts/tier-policy';
import { TIER_PRICE_EUR } from '../../../../contracts/tiers';
import { ButtonLink } from '../../../components/ui/button';
import { PageSpinner } from '../../../components/ui/spinner';
import { usePermissions } from '../api/get-permissions';
import { hasTierAccess, normalizeRequiredTier, tierLabel } from '../lib/tier-access';
import { GateScreen } from './gate-screen';
import { UpgradeOptions } from './upgrade-options';

export interface SubscriptionGateProps {
  /** 'dhr1', 'dhr2', 'vip' in any case; 'premium' means dhr2. */
  requiredTier: string;
  children: ReactNode;
}

/** Shows its children only to members whose server flags grant the tier (spec §2 subscription gate). */
export function SubscriptionGate({ requiredTier, children }: SubscriptionGateProps) {
  const { data, isPending } = usePermissions();
  const tier = normalizeRequiredTier(requiredTier);
  if (!tier) {
    return (
      <GateScreen icon={<AlertTriangle className="size-7" />} title="Configuration Error" tone="rose">
        <p>Invalid subscription tier required: {requiredTier}</p>
      </GateScreen>
    );
  }
  if (isPending) return <PageSpinner label="Loading..." />;
  if (!data?.authenticated) {
    return (
      <GateScreen icon={<Lock className="size-7" />} title="Authentication Required">
        <p>Sign in to access premium features.</p>
        <ButtonLink to="/auth">
          <LogIn className="size-4" /> Sign In
        </ButtonLink>
      </GateScreen>
    );
  }
  if (hasTierAccess(data, tier)) return <>{children}</>;
  const label = tierLabel(tier);
  return (
    <GateScreen icon={<Sparkles className="size-7" />} title="Subscribers Only" tone="cyan" wide>
      {data.subscriptionExpired && <p className="font-semibold text-rose-300">Subscription has expired</p>}
      <p>
        This channel is for {label} subscribers and above. Subscribe from €{TIER_PRICE_EUR[tier]} a month on Patreon or
        Buy Me a Coffee with the email you use here, and it opens the moment your support arrives.
      </p>
      <ul className="mx-auto grid max-w-md gap-2 text-left">
        {TIER_BENEFITS[tier].map((b) => (
          <li key={b} className="flex items-start gap-2">
            <span aria-hidden className="mt-2 size-1.5 shrink-0 rounded-full bg-aqua-400" />
            <span>{b}</span>
          </li>
        ))}
      </ul>
      <UpgradeOptions />
    </GateScreen>
  );
}
