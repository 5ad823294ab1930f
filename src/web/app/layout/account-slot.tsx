import { LogIn } from 'lucide-react';
import { ButtonLink } from '../../components/ui/button';
import { usePermissions } from '../../features/auth';
import { MemberProfileButton } from '../../features/community';
import { cn } from '../../lib/cn';

/**
 * The top bar's account control: 'Sign In' for anonymous visitors, 'MEMBER' for
 * signed-in members, opening their community profile (edit, pictures, settings, Sign Out).
 * It reads the permissions call (which answers anonymous visitors with 200 and all flags false),
 * so the bar costs one request and logs no 401.
 */
export function AccountSlot({ className, onNavigate }: { className?: string; onNavigate?: () => void }) {
  const { data: permissions, isPending } = usePermissions();
  if (isPending) {
    // Keeps the bar from jumping while the session is checked.
    return <span aria-hidden="true" className={cn('inline-block h-9 w-24 rounded-full bg-white/5', className)} />;
  }
  if (permissions?.authenticated && permissions.userId) {
    // Opens the profile dialog (Sign Out) over the page or the phone menu; closing it closes the menu too.
    return <MemberProfileButton userId={permissions.userId} className={className} title={permissions.email ?? undefined} onClose={onNavigate} />;
  }
  return (
    <ButtonLink to="/auth" size="sm" className={className} onClick={onNavigate}>
      <LogIn className="size-4" aria-hidden="true" /> Sign In
    </ButtonLink>
  );
}
