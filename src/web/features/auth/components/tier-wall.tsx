import { Crown, LogIn, UserPlus } from 'lucide-react';
import { lazy, Suspense } from 'react';
import type { Permissions } from '../../../../contracts/tier-policy';
import { tierLabel } from '../../../../contracts/tier-table';
import type { Tier } from '../../../../contracts/tiers';
import { ButtonLink } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { GateScreen } from './gate-screen';
import { TierBenefits } from './membership-status';
import { UpgradeOptions } from './upgrade-options';

// A member's steps bring the payment-linking forms (and zod): loaded only for signed-in members, so a
// visitor's wall stays light (docs/decisions/0022-first-load-of-gated-and-data-pages.md).
const MemberUpgradeSteps = lazy(() => import('./member-upgrade-steps'));

/**
 * The one wall of a tier's pages and pop-outs, for visitors and members alike: what the tier gives
 * and its price (the tier table), then how to get it. A visitor signs in or joins first; a member
 * sees where they stand and the two platforms.
 */
export default function TierWall({ tier, permissions, embedded = false }: { tier: Tier; permissions?: Permissions | undefined; embedded?: boolean }) {
  const name = tierLabel(tier);
  return (
    <GateScreen icon={<Crown className="size-7" />} title={`${name} Subscription Required`} wide embedded={embedded}>
      <p>
        {embedded ? 'This part' : 'This page'} needs a {name} subscription. Here is what you get:
      </p>
      <TierBenefits tier={tier} className="mx-auto max-w-md" />
      {permissions?.authenticated ? (
        <Suspense fallback={<Spinner label="Loading your membership..." />}>
          <MemberUpgradeSteps permissions={permissions} />
        </Suspense>
      ) : (
        <VisitorSteps />
      )}
    </GateScreen>
  );
}

/** A visitor: sign in (or create a free account), then subscribe with the same email. */
function VisitorSteps() {
  return (
    <>
      <ol className="mx-auto max-w-md list-decimal space-y-1 pl-5 text-left text-sm">
        <li>Sign in, or create a free account.</li>
        <li>Subscribe on Patreon or Buy Me a Coffee with the same email.</li>
        <li>Your access opens as soon as the payment goes through.</li>
      </ol>
      <div className="flex flex-col justify-center gap-3 sm:flex-row">
        <ButtonLink to="/simple-auth">
          <LogIn className="size-4" aria-hidden="true" /> Sign In
        </ButtonLink>
        <ButtonLink to="/auth" variant="secondary">
          <UserPlus className="size-4" aria-hidden="true" /> Create a free account
        </ButtonLink>
      </div>
      <div className="space-y-3 border-t border-white/10 pt-5">
        <p className="text-sm text-mist-300">Already a supporter? Sign in with the email you pay with, or subscribe now:</p>
        <UpgradeOptions />
      </div>
    </>
  );
}
