import { LogIn } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { ButtonLink } from '../../components/ui/button';
import { usePermissions } from '../../features/auth';
import { cn } from '../../lib/cn';
import { BAR_CONTROL } from './bar-control';

// Signed-in members only: visitors (most first loads of /) never download the member menu.
const MemberMenu = lazy(() => import('./member-menu').then((m) => ({ default: m.MemberMenu })));
const MemberLinks = lazy(() => import('./member-menu').then((m) => ({ default: m.MemberLinks })));

/**
 * The account control: 'Sign In' for anonymous visitors; for signed-in members the member menu
 * (Account, Profile, Sign out), a drop-down in the top bar and a list in the phone menu. It reads the
 * permissions call (which answers anonymous visitors with 200 and all flags false), so the bar costs
 * one request and logs no 401.
 */
export function AccountSlot({ placement, onNavigate }: { placement: 'bar' | 'sheet'; onNavigate?: () => void }) {
  const { data: permissions, isPending } = usePermissions();
  // Keeps the bar from jumping while the session is checked (and the member menu loads).
  const placeholder = (
    <span
      aria-hidden="true"
      className={cn('inline-block rounded-full bg-white/5', placement === 'bar' ? `${BAR_CONTROL} w-11 min-[400px]:w-24` : 'h-11 w-full')}
    />
  );
  if (isPending) return placeholder;
  if (permissions?.authenticated && permissions.userId) {
    return (
      <Suspense fallback={placeholder}>
        {placement === 'bar' ? (
          <MemberMenu userId={permissions.userId} email={permissions.email} />
        ) : (
          <MemberLinks userId={permissions.userId} onNavigate={onNavigate} />
        )}
      </Suspense>
    );
  }
  return (
    <ButtonLink to="/auth" size="sm" className={placement === 'bar' ? cn(BAR_CONTROL, 'px-3 min-[400px]:px-4') : 'h-11 w-full'} onClick={onNavigate}>
      <LogIn className="size-4" aria-hidden="true" />
      {/* On the narrowest phones the bar keeps the icon; the name stays for assistive technology. */}
      <span className={placement === 'bar' ? 'max-[399px]:sr-only' : undefined}>Sign In</span>
    </ButtonLink>
  );
}
