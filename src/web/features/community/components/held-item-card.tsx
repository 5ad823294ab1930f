import { Check, Flag, MessageSquare, MessagesSquare, ShieldAlert, Trash2, X } from 'lucide-react';
import { MODERATION_MESSAGES, type ModerationQueueItem } from '../../../../contracts/community';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { useConfirm } from '../../../components/ui/confirm';
import { formatDateTime } from '../../../lib/dates';
import { useModerate } from '../api/moderate-comment';
import { useModerateThread } from '../api/moderate-thread';
import { useModerateChatMessage } from '../api/moderate-chat-message';
import { notify } from '../../../components/ui/toasts';

/**
 * One held item of any kind with Approve and Remove. A comment is removed by rejecting it (it
 * stays in the log and can be approved later); a thread is deleted, so that asks first; a chat
 * message is approved for everyone in its chat or deleted.
 */
const KIND_LABEL: Record<ModerationQueueItem['kind'], string> = { comment: 'Comment', thread: 'Thread', chat: 'Chat message' };

export function HeldItemCard({ item }: { item: ModerationQueueItem }) {
  const comment = useModerate();
  const thread = useModerateThread();
  const chat = useModerateChatMessage();
  const busy = comment.isPending || thread.isPending || chat.isPending;

  const confirm = useConfirm();
  const decide = async (decision: 'approve' | 'remove') => {
    if (item.kind === 'comment') {
      const action = decision === 'approve' ? 'approve' : 'reject';
      const [ok, failed] =
        action === 'approve'
          ? [MODERATION_MESSAGES.approved, MODERATION_MESSAGES.approveFailed]
          : [MODERATION_MESSAGES.rejected, MODERATION_MESSAGES.rejectFailed];
      comment.mutate({ action, commentId: item.id }, { onSuccess: () => notify(ok), onError: () => notify(failed, 'error') });
      return;
    }
    if (item.kind === 'chat') {
      chat.mutate(
        { id: item.id, decision },
        {
          onSuccess: () => notify(decision === 'approve' ? MODERATION_MESSAGES.chatApproved : MODERATION_MESSAGES.chatRemoved),
          onError: () => notify(MODERATION_MESSAGES.chatFailed, 'error'),
        },
      );
      return;
    }
    if (decision === 'remove' && !(await confirm.ask({ title: 'Remove the thread', message: MODERATION_MESSAGES.removeThreadConfirm, confirmLabel: 'Remove' })))
      return;
    thread.mutate(
      { id: item.id, decision },
      {
        onSuccess: () => notify(decision === 'approve' ? MODERATION_MESSAGES.threadApproved : MODERATION_MESSAGES.threadRemoved),
        onError: () => notify(MODERATION_MESSAGES.threadFailed, 'error'),
      },
    );
  };

  const label = item.kind === 'thread' ? (item.title ?? '') : (item.excerpt ?? '');
  const kindLabel = KIND_LABEL[item.kind];
  return (
    <li className="glass flex min-w-0 flex-col gap-3 rounded-3xl p-4 sm:p-5" aria-label={`${kindLabel} by ${item.author}`}>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={item.kind === 'thread' ? 'violet' : item.kind === 'chat' ? 'green' : 'cyan'}>
          {item.kind === 'thread' ? <MessageSquare className="mr-1 size-3" aria-hidden /> : null}
          {item.kind === 'chat' ? <MessagesSquare className="mr-1 size-3" aria-hidden /> : null}
          {kindLabel}
        </Badge>
        {item.kind === 'chat' && <span className="text-xs text-mist-300">in {item.channelName ?? item.channel}</span>}
        <span className="font-semibold break-all text-white">{item.author}</span>
        <span className="text-xs text-mist-400">{formatDateTime(item.createdAt)}</span>
      </div>
      {item.kind === 'thread' ? (
        <h3 className="text-base font-semibold break-words text-white">{label}</h3>
      ) : (
        <p className="rounded-2xl bg-night-900/60 p-3 text-sm leading-relaxed break-words whitespace-pre-wrap text-mist-100">{label}</p>
      )}
      <p className={`flex items-start gap-1.5 text-xs ${item.reported ? 'text-rose-200' : 'text-amber-200'}`}>
        {item.reported ? <Flag className="mt-px size-3.5 shrink-0" aria-hidden /> : <ShieldAlert className="mt-px size-3.5 shrink-0" aria-hidden />}
        {item.reason}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => void decide('approve')} disabled={busy}>
          <Check className="size-4" aria-hidden /> Approve
        </Button>
        <Button size="sm" variant={item.kind === 'thread' ? 'danger' : 'secondary'} onClick={() => void decide('remove')} disabled={busy}>
          {item.kind === 'thread' ? <Trash2 className="size-4" aria-hidden /> : <X className="size-4" aria-hidden />} Remove
        </Button>
      </div>
      {confirm.dialog}
    </li>
  );
}
