import { Ban, Check, Flag, Trash2, X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { MODERATION_MESSAGES, type ModeratedComment } from '../../../../contracts/community';
import { DAY_MS } from '../../../../contracts/time';
import { Badge, TierBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { useConfirm } from '../../../components/ui/confirm';
import { TextField } from '../../../components/ui/form-controls';
import { formatDateTime } from '../../../lib/dates';
import { useModerate, type ModerationCall } from '../api/moderate-comment';
import { notify } from '../../../components/ui/toasts';

const OUTCOME = {
  approve: [MODERATION_MESSAGES.approved, MODERATION_MESSAGES.approveFailed],
  reject: [MODERATION_MESSAGES.rejected, MODERATION_MESSAGES.rejectFailed],
  delete: [MODERATION_MESSAGES.deleted, MODERATION_MESSAGES.deleteFailed],
} as const;

/** One comment in a moderation queue with Approve, Reject, Delete (confirmed) and Ban User. */
export function ModerationCard({ comment }: { comment: ModeratedComment }) {
  const moderate = useModerate();
  const [banning, setBanning] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>(undefined);
  const [days, setDays] = useState('');

  const confirm = useConfirm();
  const act = async (action: 'approve' | 'reject' | 'delete') => {
    if (action === 'delete' && !(await confirm.ask({ title: 'Delete the comment', message: MODERATION_MESSAGES.deleteConfirm, confirmLabel: 'Delete' })))
      return;
    const [ok, failed] = OUTCOME[action];
    moderate.mutate({ action, commentId: comment.id }, { onSuccess: () => notify(ok), onError: () => notify(failed, 'error') });
  };

  const ban = (e: FormEvent) => {
    e.preventDefault();
    // A ban needs its reason (said by the field); empty days means permanent. A deleted member has no account left to ban.
    if (!comment.userId) return setBanning(false);
    if (!reason.trim()) return setReasonError(MODERATION_MESSAGES.banReasonRequired);
    setReasonError(undefined);
    const n = Number(days);
    const expiresAt = days.trim() && Number.isFinite(n) && n > 0 ? new Date(Date.now() + n * DAY_MS).toISOString() : null;
    const call: ModerationCall = { action: 'ban', userId: comment.userId, reason: reason.trim(), expiresAt };
    moderate.mutate(call, {
      onSuccess: () => {
        notify(MODERATION_MESSAGES.banned(comment.username));
        setBanning(false);
        setReason('');
        setDays('');
      },
      onError: () => notify(MODERATION_MESSAGES.banFailed, 'error'),
    });
  };

  return (
    <li className="glass rounded-3xl p-4 sm:p-5">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold text-white">{comment.username}</span>
        <TierBadge tier={comment.userTier} />
        <Badge tone={comment.status === 'approved' ? 'green' : comment.status === 'pending' ? 'yellow' : 'red'} className="capitalize">
          {comment.status}
        </Badge>
        {comment.authorBanned && <Badge tone="red">Banned</Badge>}
        <span className="text-xs text-mist-400">{formatDateTime(comment.createdAt)}</span>
      </div>
      <p className="mt-1 text-xs text-mist-500">
        {comment.userEmail} · in <span className="text-mist-300">{comment.articleTitle ?? comment.articleId}</span>
      </p>
      <p className="mt-3 rounded-2xl bg-night-900/60 p-3 text-sm leading-relaxed break-words whitespace-pre-wrap text-mist-100">{comment.content}</p>
      {comment.reports.length > 0 && (
        <ul className="mt-3 space-y-1" aria-label="Reports">
          {comment.reports.map((r) => (
            <li key={`${r.reporterName}-${r.reportedAt}`} className="flex flex-wrap items-center gap-2 text-xs text-rose-200">
              <Flag className="size-3.5" aria-hidden /> <span className="font-semibold capitalize">{r.reason}</span>
              <span className="text-mist-400">
                by {r.reporterName} on {formatDateTime(r.reportedAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        <Button size="sm" onClick={() => void act('approve')} disabled={moderate.isPending}>
          <Check className="size-4" aria-hidden /> Approve
        </Button>
        <Button size="sm" variant="secondary" onClick={() => void act('reject')} disabled={moderate.isPending}>
          <X className="size-4" aria-hidden /> Reject
        </Button>
        <Button size="sm" variant="danger" onClick={() => void act('delete')} disabled={moderate.isPending}>
          <Trash2 className="size-4" aria-hidden /> Delete
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setBanning((v) => !v)} disabled={moderate.isPending}>
          <Ban className="size-4" aria-hidden /> Ban User
        </Button>
      </div>
      {banning && (
        <form onSubmit={ban} className="mt-3 grid gap-2 rounded-2xl border border-rose-400/20 bg-rose-500/5 p-3 sm:grid-cols-[1fr_9rem_auto]">
          <TextField
            label="Reason"
            value={reason}
            onChange={(e) => {
              setReason(e.target.value);
              setReasonError(undefined);
            }}
            maxLength={500}
            error={reasonError}
          />
          <TextField label="Days (empty: permanent)" value={days} onChange={(e) => setDays(e.target.value)} inputMode="numeric" />
          <Button type="submit" size="sm" variant="danger" className="self-end">
            Confirm Ban
          </Button>
        </form>
      )}
      {confirm.dialog}
    </li>
  );
}
