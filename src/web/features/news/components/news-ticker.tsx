import { MessageCircle, Radio } from 'lucide-react';
import { Link } from 'react-router';
import type { RecentComment } from '../../../../contracts/community';
import type { NewsItem } from '../../../../contracts/news';
import { TICKER_NEWS_COUNT } from '../../../../contracts/news-values';
import { PageContainer } from '../../../components/ui/page-container';
import { usePrioritized } from '../api/get-news';
import { useTickerComments } from '../api/get-recent-comments';
import { isExternalLink } from '../lib/news-age';

type TickerItem = { kind: 'news'; item: NewsItem } | { kind: 'comment'; comment: RecentComment };

function TickerEntry({ entry, hidden }: { entry: TickerItem; hidden: boolean }) {
  const cls = 'whitespace-nowrap text-sm font-medium text-mist-100 transition hover:text-aqua-200';
  // The second copy is decoration for the loop: out of the tab order and the accessibility tree.
  const a11y = hidden ? { tabIndex: -1 } : {};
  if (entry.kind === 'comment') {
    const c = entry.comment;
    return (
      <li className="flex shrink-0 items-center gap-3 pr-10">
        <MessageCircle className="size-3.5 shrink-0 text-deep-300" aria-hidden="true" />
        <span className="text-xs font-semibold tracking-wider text-mist-400 uppercase">{c.userName}</span>
        <Link to="/forum" className={cls} {...a11y}>
          “{c.comment.length > 80 ? `${c.comment.slice(0, 79)}…` : c.comment}”
          {c.articleTitle ? <span className="text-mist-400"> on {c.articleTitle}</span> : null}
        </Link>
      </li>
    );
  }
  const { item } = entry;
  return (
    <li className="flex shrink-0 items-center gap-3 pr-10">
      <span className="size-1.5 shrink-0 rounded-full bg-aqua-400 shadow-[0_0_8px_rgb(34_211_238/0.8)]" aria-hidden="true" />
      <span className="text-xs font-semibold tracking-wider text-mist-400 uppercase">{item.source}</span>
      {isExternalLink(item.link) ? (
        <a href={item.link} target="_blank" rel="noopener noreferrer" className={cls} {...a11y}>
          {item.title}
        </a>
      ) : (
        <Link to={item.link} className={cls} {...a11y}>
          {item.title}
        </Link>
      )}
    </li>
  );
}

const entryKey = (e: TickerItem) => (e.kind === 'news' ? `n:${e.item.id}` : `c:${e.comment.id}`);

/**
 * The home page's news ticker: the 5 top prioritized items and the recent comments, shown twice as one continuous
 * strip. It pauses while hovered or focused and stands still under prefers-reduced-motion (then it
 * scrolls by hand). Fixed height, so arriving data moves nothing on the page.
 */
export default function NewsTicker() {
  const { data } = usePrioritized();
  const { data: comments } = useTickerComments();
  const items: TickerItem[] = [
    ...(data ?? []).slice(0, TICKER_NEWS_COUNT).map((item) => ({ kind: 'news' as const, item })),
    ...(comments ?? []).map((comment) => ({ kind: 'comment' as const, comment })),
  ];
  return (
    <PageContainer width="wide">
      <section aria-label="Latest news" className="glass flex h-12 items-center overflow-hidden rounded-full pr-1 pl-1">
        <Link
          to="/forum"
          className="z-10 flex h-10 shrink-0 items-center gap-2 rounded-full bg-gradient-to-r from-deep-600 to-aqua-600 px-4 text-xs font-bold tracking-[0.2em] text-white uppercase"
        >
          <Radio className="size-4" aria-hidden="true" />
          <span className="hidden sm:inline">Latest</span>
          <span className="sm:hidden">News</span>
        </Link>
        <div
          className="relative min-w-0 flex-1 overflow-hidden motion-reduce:overflow-x-auto [mask-image:linear-gradient(90deg,transparent,black_3%,black_97%,transparent)]"
          data-testid="ticker-viewport"
        >
          {items.length > 0 && (
            <div
              data-testid="ticker-track"
              className="flex w-max animate-ticker pl-6 hover:[animation-play-state:paused] focus-within:[animation-play-state:paused] motion-reduce:animate-none"
            >
              <ul className="flex">
                {items.map((e) => (
                  <TickerEntry key={entryKey(e)} entry={e} hidden={false} />
                ))}
              </ul>
              <ul className="flex" aria-hidden="true">
                {items.map((e) => (
                  <TickerEntry key={entryKey(e)} entry={e} hidden />
                ))}
              </ul>
            </div>
          )}
        </div>
      </section>
    </PageContainer>
  );
}
