import { LayoutDashboard, LogOut } from 'lucide-react';
import { useState } from 'react';
import { AUTH_MESSAGES } from '../../../../contracts/auth';
import type { Permissions } from '../../../../contracts/tier-policy';
import { PAID_TIERS, tierLabel, tierList } from '../../../../contracts/tier-table';
import { Button, ButtonLink } from '../../../components/ui/button';
import { useSignOut } from '../api/logout';
import { AccountControls } from './account-controls';
import { MembershipStatus } from './membership-status';
import { MessageBox } from './message-box';
import { SecurityControls } from './security-controls';
import { SupporterLinksCard } from './supporter-links-card';
import { UpgradeOptions } from './upgrade-options';
import { tierBand } from '../../../lib/tier-prices';

/** 'DHR1 (€3+), DHR2 (€5+) or VIP (€10+)': each paid tier with the pledge that buys it. */
const UNLOCKS = tierList(PAID_TIERS, 'or', false, (t) => `${tierLabel(t)} (${tierBand(t)})`);

/**
 * /auth for a signed-in member: email, tier with its real state (a lapsed one says '(Expired)'),
 * Go to Dashboard, Sign Out, and the upgrade buttons for anyone without paid access now.
 */
export function SignedInCard({ me }: { me: Permissions }) {
  const [failed, setFailed] = useState(false);
  const signOut = useSignOut({ onFailed: () => setFailed(true), failedDelayMs: 1500 });
  return (
    <div className="space-y-6">
      <dl className="space-y-4">
        <div>
          <dt className="text-xs font-semibold tracking-[0.2em] text-mist-400 uppercase">Signed in as</dt>
          <dd className="mt-1 truncate text-lg font-semibold text-white">{me.email}</dd>
        </div>
      </dl>
      <MembershipStatus permissions={me} />
      {failed && <MessageBox kind="error">{AUTH_MESSAGES.signOutFailed}</MessageBox>}
      <div className="flex flex-col gap-3 sm:flex-row">
        <ButtonLink to={me.isAdmin ? '/admin-dashboard' : '/'} className="w-full sm:w-auto sm:flex-1">
          <LayoutDashboard className="size-4" aria-hidden /> Go to Dashboard
        </ButtonLink>
        <Button variant="secondary" className="w-full sm:w-auto sm:flex-1" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          <LogOut className="size-4" aria-hidden /> Sign Out
        </Button>
      </div>
      {!me.isAdmin && !me.canAccessDHR1 && (
        <div className="space-y-4 border-t border-white/10 pt-6 text-center">
          <p className="text-sm text-mist-300">
            {me.subscriptionExpired ? 'Your subscription has expired. Renew' : 'Subscribe'} with this email on Patreon or Buy Me a Coffee to unlock {UNLOCKS}.
          </p>
          <UpgradeOptions stacked />
        </div>
      )}
      {!me.isAdmin && <SupporterLinksCard />}
      <SecurityControls hasPassword={me.hasPassword} />
      <AccountControls />
    </div>
  );
}
