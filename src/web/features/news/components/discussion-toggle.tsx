import { ChevronDown, MessageCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { cn } from '../../../lib/cn';
import { CommentsSection } from '../../community';

/**
 * The comments of a news item or a thread, below it: closed at first, loaded when opened (a news
 * item's comments are fetched only once its section is open).
 */
export function DiscussionToggle({
  discussionId,
  title,
  source,
  newsItem = false,
}: {
  discussionId: string;
  title: string;
  source?: string;
  newsItem?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="mt-3 border-t border-white/5 pt-2">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex items-center gap-1.5 rounded-full px-2 py-1 text-xs font-semibold text-mist-300 transition hover:bg-white/5 hover:text-white"
      >
        <MessageCircle className="size-3.5" aria-hidden="true" />
        Comments
        <ChevronDown className={cn('size-3.5 transition', open && 'rotate-180')} aria-hidden="true" />
      </button>
      {open && (
        <div id={id} role="region" aria-label={`Comments on ${title}`} className="mt-2">
          <CommentsSection discussionId={discussionId} articleTitle={title} newsItem={newsItem} {...(source ? { articleSource: source } : {})} />
        </div>
      )}
    </div>
  );
}
