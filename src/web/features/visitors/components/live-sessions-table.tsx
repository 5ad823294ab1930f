import { Globe2, User } from 'lucide-react';
import type { LiveSession } from '../../../../contracts/live';
import { Badge, TierBadge } from '../../../components/ui/badge';
import { cn } from '../../../lib/cn';
import { relativeTime } from '../../../lib/dates';
import { formatPlace, formatSessionTime } from '../lib/session-time';

function StatusDot({ online }: { online: boolean }) {
  return (
    <span className="relative flex size-2.5 shrink-0" aria-label={online ? 'Online' : 'Away'} role="img">
      {online && <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-60" />}
      <span className={cn('relative inline-flex size-2.5 rounded-full', online ? 'bg-emerald-400' : 'bg-mist-500')} />
    </span>
  );
}

function Who({ s }: { s: LiveSession }) {
  if (s.userType === 'anonymous') {
    return (
      <span className="flex min-w-0 items-center gap-2 text-mist-300">
        <Globe2 className="size-4 shrink-0 text-mist-500" aria-hidden="true" />
        <span className="truncate">
          Visitor <span className="text-xs text-mist-500">#{s.id.slice(2, 6)}</span>
        </span>
      </span>
    );
  }
  return (
    <span className="flex min-w-0 items-center gap-2">
      <User className="size-4 shrink-0 text-aqua-300" aria-hidden="true" />
      <span className="min-w-0">
        <span className="block truncate font-medium text-white">{s.username}</span>
        <span className="block truncate text-xs text-mist-400">{s.email}</span>
      </span>
    </span>
  );
}

function Kind({ s }: { s: LiveSession }) {
  if (s.userType === 'anonymous') return <Badge>Anonymous</Badge>;
  return (
    <span className="flex flex-wrap gap-1">
      <TierBadge tier={s.subscriptionTier} />
      {s.isAdmin && <Badge tone="red">Admin</Badge>}
    </span>
  );
}

/** Who is on the site: a table on wide screens, a list of cards on phones. */
export function LiveSessionsTable({ sessions, now }: { sessions: LiveSession[]; now: number }) {
  if (!sessions.length) {
    return <p className="px-5 py-10 text-center text-sm text-mist-400">Nobody is online right now.</p>;
  }
  return (
    <>
      <table className="hidden w-full table-fixed text-left text-sm md:table">
        <thead className="text-xs tracking-[0.14em] text-mist-400 uppercase">
          <tr className="border-b border-white/10">
            <th className="w-10 px-4 py-3">
              <span className="sr-only">Status</span>
            </th>
            <th className="px-3 py-3 font-semibold">User</th>
            <th className="w-40 px-3 py-3 font-semibold">Type/Tier</th>
            <th className="px-3 py-3 font-semibold">Location/Page</th>
            <th className="w-28 px-3 py-3 font-semibold">Session Time</th>
            <th className="w-28 px-3 py-3 font-semibold">Last Activity</th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id} className="border-b border-white/5 last:border-0 hover:bg-white/[0.03]" data-testid="live-session">
              <td className="px-4 py-3">
                <StatusDot online={s.isOnline} />
              </td>
              <td className="px-3 py-3">
                <Who s={s} />
              </td>
              <td className="px-3 py-3">
                <Kind s={s} />
              </td>
              <td className="px-3 py-3">
                <span className="block truncate text-mist-200">{formatPlace(s.city, s.country)}</span>
                <code className="block truncate text-xs text-aqua-300">{s.currentPage}</code>
              </td>
              <td className="px-3 py-3 text-mist-200 tabular-nums">{formatSessionTime(s.sessionDuration)}</td>
              <td className="px-3 py-3 text-mist-400">{relativeTime(s.lastActivity, now)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="divide-y divide-white/5 md:hidden">
        {sessions.map((s) => (
          <li key={s.id} className="flex flex-col gap-2 px-4 py-3" data-testid="live-session-card">
            <div className="flex items-center gap-3">
              <StatusDot online={s.isOnline} />
              <div className="min-w-0 flex-1">
                <Who s={s} />
              </div>
              <Kind s={s} />
            </div>
            <div className="flex flex-wrap items-center gap-x-4 gap-y-1 pl-5.5 text-xs text-mist-400">
              <code className="max-w-full truncate text-aqua-300">{s.currentPage}</code>
              <span>{formatPlace(s.city, s.country)}</span>
              <span className="tabular-nums">{formatSessionTime(s.sessionDuration)}</span>
              <span>{relativeTime(s.lastActivity, now)}</span>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
