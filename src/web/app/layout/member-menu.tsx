import { LogOut, Settings, UserRound } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { useSignOut } from '../../features/auth';
import { MemberProfileButton } from '../../features/community';
import { cn } from '../../lib/cn';
import { usePopover } from '../../lib/use-popover';
import { BAR_CONTROL } from './bar-control';

const menuItem =
  'flex min-h-11 w-full items-center gap-3 rounded-xl px-3 py-2.5 text-left text-sm font-medium text-mist-200 transition hover:bg-white/5 hover:text-white';

function SignOutItem({ className }: { className: string }) {
  const signOut = useSignOut();
  return (
    <button type="button" className={className} onClick={() => signOut.mutate()} disabled={signOut.isPending}>
      <LogOut className="size-4" aria-hidden="true" /> Sign out
    </button>
  );
}

/** The phone menu's account block: the same three choices as the top bar's member menu. */
export function MemberLinks({ userId, onNavigate }: { userId: string; onNavigate?: () => void }) {
  return (
    <div role="group" aria-label="Your account" className="flex flex-col gap-1">
      <Link to="/auth" className={menuItem} onClick={onNavigate}>
        <Settings className="size-4" aria-hidden="true" /> Account
      </Link>
      {/* The profile dialog opens over the menu; closing it closes the menu too. */}
      <MemberProfileButton userId={userId} className={menuItem} onClose={onNavigate}>
        <UserRound className="size-4" aria-hidden="true" /> Profile
      </MemberProfileButton>
      <SignOutItem className={menuItem} />
    </div>
  );
}

/** The top bar's MEMBER button and its drop-down. */
export function MemberMenu({ userId, email }: { userId: string; email: string | null }) {
  const { open, setOpen, ref: rootRef } = usePopover();
  // Mounted from the first open on, so the profile dialog opened from it outlives the closed panel.
  const [opened, setOpened] = useState(false);
  const panelId = useId();

  const close = () => setOpen(false);
  return (
    <div ref={rootRef} className="relative">
      <button
        type="button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={panelId}
        title={email ?? undefined}
        className={buttonClasses('secondary', 'sm', cn(BAR_CONTROL, 'px-3 min-[400px]:px-4', open && 'bg-white/10'))}
        onClick={() => {
          setOpened(true);
          setOpen((v) => !v);
        }}
      >
        <UserRound className="size-4" aria-hidden="true" />
        <span className="max-[399px]:sr-only">MEMBER</span>
      </button>
      {opened && (
        <div
          id={panelId}
          role="region"
          aria-label="Your account"
          hidden={!open}
          className="fixed inset-x-3 top-[4.25rem] z-50 rounded-2xl border border-white/10 bg-night-850 p-2 shadow-2xl shadow-black/60 sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:mt-2 sm:w-64"
        >
          {email && <p className="truncate px-3 pt-2 pb-1 text-xs text-mist-400">{email}</p>}
          <Link to="/auth" className={menuItem} onClick={close}>
            <Settings className="size-4" aria-hidden="true" /> Account
          </Link>
          <MemberProfileButton userId={userId} className={menuItem} onOpen={close}>
            <UserRound className="size-4" aria-hidden="true" /> Profile
          </MemberProfileButton>
          <SignOutItem className={menuItem} />
        </div>
      )}
    </div>
  );
}
