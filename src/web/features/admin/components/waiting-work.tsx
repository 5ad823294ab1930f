import { Inbox, type LucideIcon, MessageSquareWarning, Disc3 } from 'lucide-react';
import { Link } from 'react-router';
import type { AdminStats } from '../../../../contracts/admin';
import { cn } from '../../../lib/cn';
import { formatNumber } from '../../../lib/numbers';

/** Work waiting for an admin, each count a link to where it is done. */
export function WaitingWork({
  stats,
  loading,
}: {
  stats: Pick<AdminStats, 'moderationPending' | 'contactUnhandled' | 'submissionsUnreviewed'>;
  loading: boolean;
}) {
  const items: { to: string; icon: LucideIcon; count: number; label: string }[] = [
    { to: '/forum-moderation', icon: MessageSquareWarning, count: stats.moderationPending, label: 'held for moderation' },
    { to: '/admin/contact', icon: Inbox, count: stats.contactUnhandled, label: 'contact messages to answer' },
    { to: '/admin/submissions', icon: Disc3, count: stats.submissionsUnreviewed, label: 'DJ submissions to review' },
  ];
  return (
    <ul className="grid grid-cols-1 gap-3 sm:grid-cols-3" aria-label="Waiting for an admin">
      {items.map(({ to, icon: Icon, count, label }) => (
        <li key={to} className="flex">
          <Link
            to={to}
            className={cn(
              'glass flex w-full items-center gap-3 rounded-3xl px-4 py-3 transition hover:bg-white/[0.06]',
              !loading && count > 0 && 'border-amber-300/30',
            )}
          >
            <Icon className={cn('size-5 shrink-0', !loading && count > 0 ? 'text-amber-200' : 'text-mist-400')} aria-hidden="true" />
            <span className="text-2xl font-bold text-white tabular-nums">{loading ? '–' : formatNumber(count)}</span>
            <span className="text-sm leading-snug text-mist-300">{label}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
