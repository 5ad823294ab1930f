import { Ban } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { CHAT_MESSAGES } from '../../../../contracts/chat-values';
import { MODERATION_MESSAGES } from '../../../../contracts/community-values';
import { DAY_MS } from '../../../../contracts/time';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { SelectField, TextAreaField } from '../../../components/ui/form-controls';
import { formatDateTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { useBanMember } from '../api/ban-member';

/** A banned reader's chat box: the ban, its reason and its end, before they type. */
export function BannedNotice({ ban }: { ban: { reason: string; until: string | null } }) {
  return (
    <p
      role="status"
      data-testid="chat-banned"
      className="flex min-h-11 flex-col items-center justify-center rounded-2xl bg-rose-500/5 px-3 py-2 text-center text-sm text-rose-200 ring-1 ring-rose-400/20"
    >
      <span>{CHAT_MESSAGES.banned}</span>
      <span className="text-xs text-rose-200/80">
        Reason: {ban.reason}. {ban.until ? `The ban lasts until ${formatDateTime(ban.until)}.` : 'The ban has no end date.'}
      </span>
    </p>
  );
}

const DURATIONS = [
  { value: '', label: 'No end date' },
  { value: '1', label: '1 day' },
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
] as const;

/** The moderator's ban from a chat message: one ban, from comments and chat, with a reason and an end. */
export function BanDialog({ name, userId, onClose, onBanned }: { name: string; userId: string; onClose: () => void; onBanned: (message: string) => void }) {
  const ban = useBanMember();
  const [reason, setReason] = useState('');
  const [days, setDays] = useState('');
  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const expiresAt = days ? new Date(Date.now() + Number(days) * DAY_MS).toISOString() : null;
    ban.mutate(
      { userId, reason: reason.trim(), expiresAt },
      {
        onSuccess: (r) => {
          onBanned(r.message);
          onClose();
        },
      },
    );
  }
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Ban ${name} from comments and chat`}
      description="The member can still listen, but can no longer comment on news, the forum and the home page, or post in any chat."
    >
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        {ban.isError && (
          <p role="alert" className="rounded-2xl bg-rose-500/10 px-3 py-2 text-sm text-rose-200 ring-1 ring-rose-400/20">
            {errorMessage(ban.error, MODERATION_MESSAGES.banFailed)}
          </p>
        )}
        <TextAreaField label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} rows={3} required />
        <SelectField label="Ban lasts" value={days} onChange={(e) => setDays(e.target.value)} options={DURATIONS} />
        <Button type="submit" variant="danger" className="w-full" disabled={!reason.trim() || ban.isPending}>
          <Ban className="size-4" aria-hidden /> {ban.isPending ? 'Banning...' : 'Ban from comments and chat'}
        </Button>
      </form>
    </Dialog>
  );
}
