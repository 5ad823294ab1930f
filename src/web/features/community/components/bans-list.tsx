import { Unlock } from 'lucide-react';
import { MODERATION_MESSAGES, type CommentBan } from '../../../../contracts/community';
import { Button } from '../../../components/ui/button';
import { useConfirm } from '../../../components/ui/confirm';
import { formatDateTime } from '../../../lib/dates';
import { useLiftBan } from '../api/lift-ban';
import { notify } from '../../../components/ui/toasts';

/** The bans in force, each with Lift (asked first). */
export function BansList({ bans }: { bans: CommentBan[] }) {
  const lift = useLiftBan();
  const confirm = useConfirm();
  const onLift = async (ban: CommentBan) => {
    if (!(await confirm.ask({ title: 'Lift the ban', message: MODERATION_MESSAGES.liftConfirm(ban.username), confirmLabel: 'Lift' }))) return;
    lift.mutate(ban.userId, {
      onSuccess: () => notify(MODERATION_MESSAGES.lifted(ban.username)),
      onError: () => notify(MODERATION_MESSAGES.liftFailed, 'error'),
    });
  };
  if (bans.length === 0) return <p className="glass rounded-3xl p-8 text-center text-mist-300">Nobody is banned.</p>;
  return (
    <ul className="grid gap-4 lg:grid-cols-2">
      {bans.map((b) => (
        <li key={b.userId} className="glass flex min-w-0 flex-col gap-2 rounded-3xl p-4 sm:p-5" aria-label={`Ban on ${b.username}`}>
          <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
            <span className="font-semibold break-all text-white">{b.username}</span>
            <span className={`text-xs font-semibold ${b.until ? 'text-amber-200' : 'text-rose-300'}`}>
              {b.until ? `Until ${formatDateTime(b.until)}` : 'Permanent'}
            </span>
          </div>
          <p className="text-xs break-all text-mist-500">{b.email}</p>
          <p className="rounded-2xl bg-night-900/60 p-3 text-sm break-words text-mist-100">{b.reason}</p>
          <p className="text-xs text-mist-400">
            Banned {b.bannedBy ? `by ${b.bannedBy} ` : ''}on {formatDateTime(b.createdAt)}
          </p>
          <div>
            <Button size="sm" variant="secondary" onClick={() => void onLift(b)} disabled={lift.isPending}>
              <Unlock className="size-4" aria-hidden /> Lift
            </Button>
          </div>
        </li>
      ))}
      {confirm.dialog}
    </ul>
  );
}
