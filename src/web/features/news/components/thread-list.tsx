import { Check, MessagesSquare, Trash2 } from 'lucide-react';
import type { ForumPost } from '../../../../contracts/news';
import { Badge, TierBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useConfirm } from '../../../components/ui/confirm';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { useModerateForumPost } from '../api/moderate-forum-post';
import { newsAge } from '../lib/news-age';
import { DiscussionToggle } from './discussion-toggle';

const CATEGORY = {
  discussion: { label: 'Discussion', tone: 'cyan' },
  events: { label: 'Events', tone: 'violet' },
  releases: { label: 'Releases', tone: 'gold' },
} as const;

/** Member threads, newest first. An admin also sees held threads, with Approve and Remove. */
export function ThreadList({
  posts,
  loading,
  failed,
  emptyText,
  canModerate,
}: {
  posts: ForumPost[];
  loading: boolean;
  /** The read failed (and nothing is on screen): "Couldn't load the forum" with Retry, never the empty text. */
  failed: { retry: () => void; retrying: boolean } | null;
  emptyText: string;
  canModerate: boolean;
}) {
  return (
    <Card padding="none" className="overflow-hidden" role="region" aria-labelledby="threads-title">
      <div className="flex items-center gap-2 border-b border-white/5 px-4 py-4 sm:px-6">
        <MessagesSquare className="size-5 text-aqua-300" aria-hidden="true" />
        <h2 id="threads-title" className="font-display text-xl font-bold text-white">
          Member Threads
        </h2>
      </div>
      <div className="space-y-3 p-3 sm:p-5">
        {loading ? (
          <div className="py-8">
            <Spinner label="Loading threads..." showLabel />
          </div>
        ) : failed ? (
          <LoadError what="the forum" onRetry={failed.retry} retrying={failed.retrying} compact className="py-6" />
        ) : posts.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-white/10 px-4 py-10 text-center text-sm text-mist-400">{emptyText}</p>
        ) : (
          posts.map((p) => (
            <article key={p.id} aria-labelledby={`thread-${p.id}`} className="rounded-2xl border border-white/5 bg-white/[0.03] p-4 sm:p-5">
              <div className="mb-2 flex flex-wrap items-center gap-2 text-xs text-mist-400">
                <Badge tone={CATEGORY[p.category].tone}>{CATEGORY[p.category].label}</Badge>
                {p.status === 'pending' && <Badge tone="yellow">Awaiting moderation</Badge>}
                <span className="font-semibold text-mist-200">{p.authorName}</span>
                {p.authorTier === 'admin' ? <Badge tone="red">Admin</Badge> : <TierBadge tier={p.authorTier} />}
                <span aria-hidden="true">·</span>
                <time dateTime={p.createdAt} title={formatDateTime(p.createdAt)}>
                  {newsAge(p.createdAt)}
                </time>
              </div>
              <h3 id={`thread-${p.id}`} className="font-display text-lg font-semibold break-words text-white">
                {p.title}
              </h3>
              <p className="mt-1.5 text-sm leading-relaxed break-words whitespace-pre-line text-mist-300">{p.body}</p>
              {p.status === 'approved' && <DiscussionToggle discussionId={p.id} title={p.title} source="Forum" />}
              {canModerate && <ThreadModeration post={p} />}
            </article>
          ))
        )}
      </div>
    </Card>
  );
}

function ThreadModeration({ post }: { post: ForumPost }) {
  const moderate = useModerateForumPost();
  const confirm = useConfirm();
  const decide = async (decision: 'approve' | 'remove') => {
    if (
      decision === 'remove' &&
      !(await confirm.ask({ title: 'Remove the thread', message: `Remove the thread "${post.title}"? This cannot be undone.`, confirmLabel: 'Remove' }))
    )
      return;
    moderate.mutate({ id: post.id, decision });
  };
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2 border-t border-white/5 pt-3">
      {confirm.dialog}
      {post.status === 'pending' && (
        <Button size="sm" variant="secondary" disabled={moderate.isPending} onClick={() => decide('approve')}>
          <Check className="size-4" aria-hidden="true" /> Approve
        </Button>
      )}
      <Button size="sm" variant="ghost" disabled={moderate.isPending} onClick={() => decide('remove')}>
        <Trash2 className="size-4" aria-hidden="true" /> Remove
      </Button>
      {moderate.isError && (
        <p role="alert" className="text-sm text-rose-300">
          {errorMessage(moderate.error, 'The thread could not be updated.')}
        </p>
      )}
    </div>
  );
}
