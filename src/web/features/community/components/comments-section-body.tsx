import { LogIn, Send, Sparkles } from 'lucide-react';
import { Suspense, useState, type FormEvent, type KeyboardEvent } from 'react';
import { COMMENT_MAX_LENGTH, COMMENT_MESSAGES, newsCommentFailure } from '../../../../contracts/community';
import { ANONYMOUS_PERMISSIONS } from '../../../../contracts/tier-policy';
import { Button, ButtonLink } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { ApiError, errorMessage } from '../../../lib/http';
import { usePermissions } from '../../auth';
import { useComments } from '../api/get-comments';
import { usePostComment } from '../api/post-comment';
import { notify } from '../../../components/ui/toasts';
import { CommentItem } from './comment-item';
import { ProfileDialog } from './lazy-dialogs';

export interface CommentsSectionProps {
  /** The discussion: 'homepage', a news item id, a forum thread id. */
  discussionId: string;
  /** Sent with the comment so the recent feed can name what it is about. */
  articleTitle?: string;
  articleSource?: string;
  /** A news item's discussion: a failed post names the server's reason in the news page's words. */
  newsItem?: boolean;
  className?: string;
}

/** What a failed post tells the member. */
function postFailure(err: unknown, newsItem: boolean): string {
  const message = errorMessage(err, COMMENT_MESSAGES.postFailed);
  if (message.toLowerCase().includes('banned')) return COMMENT_MESSAGES.banned;
  if (!newsItem) return message;
  return newsCommentFailure(err instanceof ApiError ? err.serverMessage : err instanceof Error ? err.message : undefined);
}

/** The list and form of a discussion (loaded on demand by comments-section.tsx). */
export default function CommentsSectionBody({ discussionId, articleTitle, articleSource, newsItem = false, className }: CommentsSectionProps) {
  const { data } = usePermissions();
  const me = data ?? ANONYMOUS_PERMISSIONS;
  const comments = useComments(discussionId);
  const post = usePostComment();
  const [text, setText] = useState('');
  const [profileId, setProfileId] = useState<string | null>(null);
  const trimmed = text.trim();
  const tooLong = trimmed.length > COMMENT_MAX_LENGTH;
  const canSubmit = trimmed.length > 0 && !tooLong && !post.isPending;

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (!canSubmit) return;
    if (!me.canComment) {
      notify(COMMENT_MESSAGES.subscriptionRequired);
      return;
    }
    post.mutate(
      { articleId: discussionId, content: trimmed, articleTitle, articleSource },
      {
        onSuccess: (res) => {
          setText('');
          notify(res.comment.status === 'approved' ? COMMENT_MESSAGES.posted : COMMENT_MESSAGES.submitted);
        },
        onError: (err) => notify(postFailure(err, newsItem)),
      },
    );
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };

  return (
    <div className={cn('space-y-5', className)}>
      {!me.authenticated ? (
        <div className="flex flex-col items-center gap-3 rounded-2xl border border-white/10 bg-white/[0.03] px-4 py-5 text-center">
          <p className="text-sm text-mist-300">Join the conversation with the DHR family.</p>
          <ButtonLink to="/auth" size="sm">
            <LogIn className="size-4" aria-hidden /> Sign In To Comment
          </ButtonLink>
        </div>
      ) : !me.canComment ? (
        <div className="flex flex-col items-center gap-3 rounded-2xl border border-amber-400/20 bg-amber-500/5 px-4 py-5 text-center">
          <p className="text-sm font-semibold text-amber-200">{COMMENT_MESSAGES.subscriptionRequiredShort}</p>
          <p className="text-sm text-mist-300">{COMMENT_MESSAGES.subscriptionRequired}</p>
          <ButtonLink to="/auth" size="sm">
            <Sparkles className="size-4" aria-hidden /> Upgrade
          </ButtonLink>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-2">
          <label htmlFor={`comment-${discussionId}`} className="sr-only">
            Your comment
          </label>
          <textarea
            id={`comment-${discussionId}`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
            rows={3}
            placeholder="Share your thoughts on the music..."
            className="w-full resize-y rounded-2xl border border-white/10 bg-night-900/80 px-4 py-3 text-sm text-white placeholder:text-mist-500 focus:border-aqua-400/50 focus:ring-2 focus:ring-aqua-400/20 focus:outline-none"
          />
          <div className="flex items-center justify-between gap-3">
            <span className={cn('text-xs tabular-nums', tooLong ? 'font-semibold text-rose-300' : 'text-mist-400')} aria-live="polite">
              {trimmed.length}/{COMMENT_MAX_LENGTH} characters
            </span>
            <Button type="submit" size="sm" disabled={!canSubmit}>
              <Send className="size-4" aria-hidden /> {post.isPending ? 'Posting...' : 'Post Comment'}
            </Button>
          </div>
        </form>
      )}

      {comments.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner />
        </div>
      ) : comments.isError ? (
        <LoadError what="the comments" onRetry={() => void comments.refetch()} retrying={comments.isFetching} compact />
      ) : comments.data.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-white/10 px-4 py-8 text-center text-sm text-mist-300">{COMMENT_MESSAGES.emptyList}</p>
      ) : (
        <ul className="space-y-3" aria-label="Comments">
          {comments.data.map((c) => (
            <CommentItem
              key={c.id}
              comment={c}
              canReport={me.authenticated && c.userId !== me.userId && c.status === 'approved'}
              onOpenProfile={setProfileId}
            />
          ))}
        </ul>
      )}

      {profileId && (
        <Suspense fallback={null}>
          <ProfileDialog userId={profileId} open onOpenChange={(open) => !open && setProfileId(null)} />
        </Suspense>
      )}
    </div>
  );
}
