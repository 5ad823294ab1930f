import { Home, Lock, LogIn, ShieldAlert } from 'lucide-react';
import { lazy, type ReactNode, Suspense } from 'react';
import type { AccessPolicy } from '../../../../contracts/access-policy';
import { ButtonLink } from '../../../components/ui/button';
import { PageSpinner } from '../../../components/ui/spinner';
import { usePermissions } from '../api/get-permissions';
import { hasTierAccess } from '../lib/tier-access';
import { GateScreen } from './gate-screen';

// Only visitors and members below the tier see it: loaded when needed, so a gated page's first load
// stays light (docs/decisions/0022-first-load-of-gated-and-data-pages.md).
const TierWall = lazy(() => import('./tier-wall'));

export interface AccessGateProps {
  /** The same policy values the server's routes declare (`access.admin`, `access.tier('vip')`, ...). */
  policy: AccessPolicy;
  children: ReactNode;
  /** The gate covers part of a page with its own heading (the live monitor's identifications). */
  embedded?: boolean;
}

/**
 * The one page gate of the web app: shows `children` when the server's permission flags satisfy
 * `policy`, else the matching screen. It only shows; the server enforces the same policy on the API.
 */
export function AccessGate({ policy, children, embedded = false }: AccessGateProps) {
  // A page behind a tier gate is a premium page: its own cache settings (get-permissions.ts).
  const { data, isPending } = usePermissions(policy.kind === 'tier' ? 'premium' : 'standard');
  if (policy.kind === 'public') return <>{children}</>;
  if (isPending) return <PageSpinner label="Checking your access..." />;
  // A visitor at a tier's page sees what the tier gives and how to join, not a bare sign-in wall.
  if (!data?.authenticated && policy.kind !== 'tier') return <LoginRequired />;
  if (policy.kind === 'admin' && !data?.isAdmin) return <AdminRequired />;
  if (policy.kind === 'tier' && !(data?.authenticated && hasTierAccess(data, policy.tier))) {
    return (
      <Suspense fallback={<PageSpinner label="Checking your access..." />}>
        <TierWall tier={policy.tier} permissions={data} embedded={embedded} />
      </Suspense>
    );
  }
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
