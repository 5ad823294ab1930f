import { CheckCircle2, Mail, RotateCcw, Star } from 'lucide-react';
import { useState } from 'react';
import { access } from '../../../../contracts/access-policy';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { PageContainer } from '../../../components/ui/page-container';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { formatDateTime } from '../../../lib/dates';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AccessGate } from '../../auth';
import { useContactMessages, useSetHandled, type InboxStatus } from '../api/contact-inbox';
import { AdminHeader } from '../components/admin-header';
import { tierLabel } from '../../../../contracts/tier-table';
import { PRIORITY_SUPPORT_TIER } from '../../../../contracts/tier-policy';

/** /admin/contact: messages from the contact form, VIP (priority support) first. */
export default function ContactInboxPage() {
  useDocumentTitle('Contact Inbox');
  return (
    <AccessGate policy={access.admin}>
      <Inbox />
    </AccessGate>
  );
}

function Inbox() {
  const [status, setStatus] = useState<InboxStatus>('open');
  const messages = useContactMessages(status);
  const handle = useSetHandled();
  return (
    <PageContainer width="wide" className="flex flex-col gap-6 py-8 sm:py-12">
      <AdminHeader title="Contact Inbox" description={`Messages from the contact form. ${tierLabel(PRIORITY_SUPPORT_TIER)} members get priority support.`} />
      <div role="tablist" aria-label="Messages" className="glass flex gap-1 self-start rounded-full p-1">
        {(['open', 'handled', 'all'] as const).map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            aria-selected={status === s}
            onClick={() => setStatus(s)}
            className={cn(
              'rounded-full px-4 py-2 text-sm font-semibold capitalize transition',
              status === s ? 'bg-white/10 text-white' : 'text-mist-400 hover:text-white',
            )}
          >
            {s}
          </button>
        ))}
      </div>
      {handle.isError && (
        <p role="alert" className="text-sm text-rose-300">
          {handle.error.message}
        </p>
      )}
      {messages.isPending ? (
        <Spinner />
      ) : messages.isError ? (
        <LoadError what="the inbox" onRetry={() => void messages.refetch()} retrying={messages.isFetching} />
      ) : messages.data.messages.length === 0 ? (
        <p className="glass rounded-3xl p-8 text-center text-mist-300">No messages here.</p>
      ) : (
        <>
          {messages.data.total > messages.data.messages.length && (
            <p className="text-sm text-mist-300">
              Showing {messages.data.messages.length} of {messages.data.total}, priority first, newest first.
            </p>
          )}
          <ul className="grid gap-4 lg:grid-cols-2">
            {messages.data.messages.map((m) => (
              <li key={m.id} className={cn('glass flex flex-col gap-3 rounded-3xl p-5', m.priority && 'border-amber-300/40')}>
                <div className="flex flex-wrap items-center gap-2">
                  {m.priority && (
                    <Badge tone="gold">
                      <Star className="size-3.5" aria-hidden /> Priority
                    </Badge>
                  )}
                  <span className="font-semibold text-white">{m.subject ?? 'No subject'}</span>
                  {m.handledAt && <Badge tone="green">Handled</Badge>}
                </div>
                <p className="text-xs text-mist-400">
                  {m.name} &lt;{m.email}&gt;{m.fromMember ? ` · member ${m.fromMember}` : ''} · {formatDateTime(m.createdAt)}
                </p>
                <p className="text-sm leading-relaxed break-words whitespace-pre-wrap text-mist-100">{m.message}</p>
                {m.handledAt && (
                  <p className="text-xs text-mist-400">
                    Handled{m.handledBy ? ` by ${m.handledBy}` : ''} · {formatDateTime(m.handledAt)}
                  </p>
                )}
                <div className="mt-auto flex flex-wrap gap-2">
                  <a
                    href={`mailto:${encodeURIComponent(m.email)}?subject=${encodeURIComponent(`Re: ${m.subject ?? 'your message to Deep House Radio'}`)}`}
                    className="glass inline-flex h-9 items-center gap-2 rounded-full px-4 text-sm font-semibold text-mist-100"
                  >
                    <Mail className="size-4" aria-hidden /> Reply
                  </a>
                  {m.handledAt ? (
                    <Button size="sm" variant="ghost" disabled={handle.isPending} onClick={() => handle.mutate({ id: m.id, handled: false })}>
                      <RotateCcw className="size-4" aria-hidden /> Reopen
                    </Button>
                  ) : (
                    <Button size="sm" variant="secondary" disabled={handle.isPending} onClick={() => handle.mutate({ id: m.id, handled: true })}>
                      <CheckCircle2 className="size-4" aria-hidden /> Mark handled
                    </Button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </PageContainer>
  );
}
