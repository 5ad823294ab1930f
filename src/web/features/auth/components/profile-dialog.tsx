import { LayoutDashboard, LogOut } from 'lucide-react';
import { useState } from 'react';
import { AUTH_MESSAGES } from '../../../../contracts/auth';
import { TierBadge } from '../../../components/ui/badge';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { usePermissions } from '../api/get-permissions';
import { useSignOut } from '../api/logout';
import { formatLongDate } from '../../../lib/dates';
import { MessageBox } from './message-box';

/** The signed-in member's own profile: who, tier, status, expiry, and Sign Out. */
export default function ProfileDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { data: me } = usePermissions();
  const [failed, setFailed] = useState(false);
  const signOut = useSignOut({ onFailed: () => setFailed(true), failedDelayMs: 1500 });
  const name = me?.username ?? me?.email ?? '';
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Your profile" description="Your Deep House Radio membership" size="sm">
      <div className="space-y-5">
        <div className="flex items-center gap-4">
          <div className="flex size-14 shrink-0 items-center justify-center rounded-2xl bg-gradient-to-br from-deep-500 to-aqua-500 text-xl font-bold text-white">
            {name.charAt(0).toUpperCase()}
          </div>
          <div className="min-w-0">
            <p className="truncate text-lg font-semibold text-white">{name}</p>
            <p className="truncate text-sm text-mist-300">{me?.email}</p>
            <div className="mt-1.5 flex flex-wrap gap-2">
              <TierBadge tier={me?.subscriptionTier} expired={me?.subscriptionExpired} />
              {me?.isAdmin && (
                <span className="rounded-full bg-rose-500/15 px-2.5 py-0.5 text-xs font-semibold text-rose-200 ring-1 ring-rose-400/30 ring-inset">
                  Admin
                </span>
              )}
            </div>
          </div>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-2xl border border-white/10 bg-white/[0.03] p-4 text-sm">
          <dt className="text-mist-400">Status</dt>
          <dd className="text-white">
            {me?.subscriptionStatus}
            {me?.subscriptionExpired && <span className="ml-1 text-rose-300">(Expired)</span>}
          </dd>
          {me?.subscriptionExpiry && (
            <>
              <dt className="text-mist-400">Expires</dt>
              <dd className="text-white">{formatLongDate(me.subscriptionExpiry)}</dd>
            </>
          )}
        </dl>
        {failed && <MessageBox kind="error">{AUTH_MESSAGES.signOutFailed}</MessageBox>}
        <div className="flex flex-col gap-3 sm:flex-row">
          {me?.isAdmin && (
            <ButtonLink to="/admin-dashboard" variant="secondary" className="w-full sm:w-auto sm:flex-1" onClick={() => onOpenChange(false)}>
              <LayoutDashboard className="size-4" aria-hidden /> Dashboard
            </ButtonLink>
          )}
          <Button variant="danger" className="w-full sm:w-auto sm:flex-1" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            <LogOut className="size-4" aria-hidden /> {signOut.isPending ? 'Signing out...' : 'Sign Out'}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
