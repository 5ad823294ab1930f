import { useQueryClient } from '@tanstack/react-query';
import { RefreshCcw } from 'lucide-react';
import { useState } from 'react';
import { access } from '../../../../contracts/access-policy';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { PageContainer } from '../../../components/ui/page-container';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { formatDateTime } from '../../../lib/dates';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AccessGate } from '../../auth';
import { useBans } from '../api/get-bans';
import { useHeldQueue } from '../api/get-held-queue';
import { useModerationLog, useModerationQueue } from '../api/get-moderation-queues';
import { communityKeys } from '../api/keys';
import { AdminHeader } from '../components/admin-header';
import { BansList } from '../components/bans-list';
import { HeldItemCard } from '../components/held-item-card';
import { ModerationCard } from '../components/moderation-card';

/** /forum-moderation: everything held (comments, forum threads, chat messages) in one queue, the comment queues in detail, bans and the log. */
export default function ForumModerationPage() {
  useDocumentTitle('Comment Moderation');
  return (
    <AccessGate policy={access.admin}>
      <Moderation />
    </AccessGate>
  );
}

type View = 'held' | 'reported' | 'pending' | 'bans' | 'log';

function Moderation() {
  const qc = useQueryClient();
  const [view, setView] = useState<View>('held');
  const held = useHeldQueue();
  const reported = useModerationQueue('reported');
  const pending = useModerationQueue('pending');
  const bans = useBans();
  const counts = held.data?.counts;
  // A queue that could not be read has no count (it is not empty).
  const count = (q: { isError: boolean; data?: unknown[] }) => (q.isError && !q.data ? '–' : String(q.data?.length ?? 0));
  const tabs: [View, string][] = [
    ['held', `Held (${count({ isError: held.isError, data: held.data?.items })})`],
    ['reported', `Reported (${count(reported)})`],
    ['pending', `Pending (${count(pending)})`],
    ['bans', `Bans (${count(bans)})`],
    ['log', 'Moderation Log'],
  ];
  const queue = view === 'reported' ? reported : pending;
  return (
    <PageContainer width="wide" className="flex flex-col gap-6 py-8 sm:py-12">
      <AdminHeader title="Comment Moderation" description="Held comments, forum threads and chat messages, bans and decisions. Every action is logged.">
        <Button variant="secondary" size="sm" onClick={() => void qc.invalidateQueries({ queryKey: communityKeys.moderation })}>
          <RefreshCcw className="size-4" aria-hidden /> Refresh
        </Button>
      </AdminHeader>
      <dl className="grid grid-cols-2 gap-2 sm:max-w-2xl sm:grid-cols-4 sm:gap-3" aria-label="Held items">
        {(
          [
            ['Comments', counts?.comments],
            ['Threads', counts?.threads],
            ['Chat', counts?.chat],
            ['Reported', counts?.reported],
          ] as const
        ).map(([label, n]) => (
          <div key={label} className="glass flex flex-col rounded-2xl px-3 py-2 sm:px-4 sm:py-3">
            <dt className="text-[0.7rem] font-semibold tracking-wider text-mist-400 uppercase">{label}</dt>
            <dd className="text-2xl font-bold text-white tabular-nums">{n ?? '–'}</dd>
          </div>
        ))}
      </dl>
      <div
        role="tablist"
        aria-label="Moderation queues"
        className="glass flex w-full flex-wrap gap-1 self-start rounded-3xl p-1 sm:w-auto sm:flex-nowrap sm:rounded-full"
      >
        {tabs.map(([v, label]) => (
          <button
            key={v}
            type="button"
            role="tab"
            aria-selected={view === v}
            onClick={() => setView(v)}
            className={cn(
              'flex-auto rounded-full px-3 py-2 text-sm font-semibold whitespace-nowrap transition sm:flex-none sm:px-4',
              view === v ? 'bg-white/10 text-white' : 'text-mist-400 hover:text-white',
            )}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        {view === 'log' ? (
          <ModerationLogTable />
        ) : view === 'held' ? (
          held.isPending ? (
            <Spinner />
          ) : held.isError ? (
            <LoadError what="the moderation queue" onRetry={() => void held.refetch()} retrying={held.isFetching} />
          ) : held.data.items.length === 0 ? (
            <p className="glass rounded-3xl p-8 text-center text-mist-300">Nothing is waiting for a moderator. All clear.</p>
          ) : (
            <ul className="grid gap-4 lg:grid-cols-2">
              {held.data.items.map((item) => (
                <HeldItemCard key={`${item.kind}-${item.id}`} item={item} />
              ))}
            </ul>
          )
        ) : view === 'bans' ? (
          bans.isPending ? (
            <Spinner />
          ) : bans.isError ? (
            <LoadError what="the bans" onRetry={() => void bans.refetch()} retrying={bans.isFetching} />
          ) : (
            <BansList bans={bans.data} />
          )
        ) : queue.isPending ? (
          <div className="flex justify-center py-12">
            <Spinner />
          </div>
        ) : queue.isError ? (
          <LoadError
            what={view === 'reported' ? 'the reported comments' : 'the pending comments'}
            onRetry={() => void queue.refetch()}
            retrying={queue.isFetching}
          />
        ) : queue.data.length === 0 ? (
          <p className="glass rounded-3xl p-8 text-center text-mist-300">
            {view === 'reported' ? 'No reported comments. All clear.' : 'No comments waiting for review.'}
          </p>
        ) : (
          <ul className="grid gap-4 lg:grid-cols-2">
            {queue.data.map((c) => (
              <ModerationCard key={c.id} comment={c} />
            ))}
          </ul>
        )}
      </div>
    </PageContainer>
  );
}

const ACTION_LABEL = { approve: 'Approved', reject: 'Rejected', delete: 'Deleted', ban: 'Banned', unban: 'Ban lifted' } as const;

function ModerationLogTable() {
  const log = useModerationLog();
  if (log.isPending) return <Spinner />;
  if (log.isError) return <LoadError what="the moderation log" onRetry={() => void log.refetch()} retrying={log.isFetching} />;
  if (log.data.length === 0) return <p className="glass rounded-3xl p-8 text-center text-mist-300">No moderation actions yet.</p>;
  return (
    <div className="glass overflow-x-auto rounded-3xl">
      <table className="w-full min-w-[40rem] text-left text-sm">
        <caption className="sr-only">Moderation log</caption>
        <thead className="border-b border-white/5 text-xs tracking-wider text-mist-400 uppercase">
          <tr>
            <th className="px-4 py-3 font-semibold">When</th>
            <th className="px-4 py-3 font-semibold">Moderator</th>
            <th className="px-4 py-3 font-semibold">Action</th>
            <th className="px-4 py-3 font-semibold">Member</th>
            <th className="px-4 py-3 font-semibold">Detail</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-white/5">
          {log.data.map((e) => (
            <tr key={e.id}>
              <td className="px-4 py-3 whitespace-nowrap text-mist-300">{formatDateTime(e.createdAt)}</td>
              <td className="px-4 py-3 text-white">{e.moderatorUsername}</td>
              <td className="px-4 py-3 text-aqua-200">{ACTION_LABEL[e.action]}</td>
              <td className="px-4 py-3 text-mist-200">{e.targetUsername ?? '-'}</td>
              <td className="max-w-xs truncate px-4 py-3 text-mist-400" title={e.detail ?? undefined}>
                {e.detail ?? ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
