import { MessagesSquare, Search } from 'lucide-react';
import { useDeferredValue, useEffect, useRef, useState } from 'react';
import { FORUM_FILTERS, FORUM_SEARCH_MAX, type ForumFilter, type NewsItemType } from '../../../../contracts/news-values';
import { ANONYMOUS_PERMISSIONS } from '../../../../contracts/tier-policy';
import { AdPlaceholder } from '../../../components/ui/ad-placeholder';
import { PageContainer } from '../../../components/ui/page-container';
import { cn } from '../../../lib/cn';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { grantedBenefits, usePermissions } from '../../auth';
import { useForumPosts } from '../api/get-forum-posts';
import { ForumStats, JoinTheDiscussion, UpgradeToPost, WelcomeBanner } from '../components/forum-sidebar';
import { NewThreadForm } from '../components/new-thread-form';
import { NewsPanel } from '../components/news-panel';
import { ThreadList } from '../components/thread-list';
import { useForumDeepLink, type ForumDeepLink } from '../lib/use-forum-deep-link';

const FILTER_LABEL: Record<ForumFilter, string> = { all: 'All', news: 'News', events: 'Events', releases: 'Releases', discussion: 'Discussion' };
/** Which news items a category button shows beside the threads ('discussion' shows threads only). */
const NEWS_FOR_FILTER: Record<ForumFilter, { show: boolean; type?: NewsItemType }> = {
  all: { show: true },
  news: { show: true },
  events: { show: true, type: 'event' },
  releases: { show: true, type: 'release' },
  discussion: { show: false },
};

/** How long a shared address waits for its thread or article to load before giving up on scrolling to it. */
const DEEP_LINK_FRAMES = 600;

/** Brings the thread or article a shared address names into view and focus, once the list shows it. */
function useScrollToLinked(link: ForumDeepLink): void {
  const kind = link?.kind;
  const id = link?.id;
  useEffect(() => {
    if (!kind || !id) return;
    const target = `${kind === 'news' ? 'news' : 'thread'}-${id}`;
    let frame = 0;
    let tries = 0;
    const look = () => {
      const el = document.getElementById(target);
      if (el) {
        el.setAttribute('tabindex', '-1');
        el.scrollIntoView({ block: 'center' });
        el.focus({ preventScroll: true });
        return;
      }
      if ((tries += 1) < DEEP_LINK_FRAMES) frame = requestAnimationFrame(look);
    };
    frame = requestAnimationFrame(look);
    return () => cancelAnimationFrame(frame);
  }, [kind, id]);
}

/** /forum: search, category buttons, the news panel, member threads, stats, ad; /forum/:id and /news/:id open it on that thread or article. */
export default function ForumPage() {
  useDocumentTitle('Forum');
  const link = useForumDeepLink();
  useScrollToLinked(link);
  const [filter, setFilter] = useState<ForumFilter>(link?.kind === 'news' ? 'news' : 'all');
  const [query, setQuery] = useState('');
  const search = useDeferredValue(query.trim());
  const { data } = usePermissions();
  const permissions = data ?? ANONYMOUS_PERMISSIONS;
  const threads = useForumPosts(filter, search);
  const titleRef = useRef<HTMLInputElement>(null);
  const [composing, setComposing] = useState(false);
  const news = NEWS_FOR_FILTER[filter];
  const showAds = !grantedBenefits(permissions).adFree;

  return (
    <PageContainer width="wide" className="py-10 sm:py-14">
      <header className="max-w-3xl">
        <p className="flex items-center gap-2 text-xs font-semibold tracking-[0.25em] text-aqua-300 uppercase">
          <MessagesSquare className="size-4" aria-hidden="true" /> Community
        </p>
        <h1 className="mt-3 font-display text-4xl font-bold tracking-tight text-white sm:text-5xl">
          <span className="text-gradient">DHR Forum</span>
        </h1>
        <p className="mt-3 text-base leading-relaxed text-mist-300 sm:text-lg">News from the scene, events, releases and the people who dig them.</p>
      </header>

      <div className="mt-8 flex flex-col gap-4 lg:flex-row lg:items-center lg:justify-between">
        <label className="relative block w-full lg:max-w-md">
          <span className="sr-only">Search the forum</span>
          <Search className="pointer-events-none absolute top-1/2 left-4 size-4 -translate-y-1/2 text-mist-400" aria-hidden="true" />
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            maxLength={FORUM_SEARCH_MAX}
            placeholder="Search threads and news…"
            className="h-11 w-full rounded-full border border-white/10 bg-white/5 pr-4 pl-11 text-sm text-white placeholder:text-mist-500 focus:border-aqua-400/60 focus:outline-none focus:ring-2 focus:ring-aqua-400/20"
          />
        </label>
        <div role="group" aria-label="Category" className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 lg:mx-0 lg:px-0 lg:pb-0">
          {FORUM_FILTERS.map((f) => (
            <button
              key={f}
              type="button"
              aria-pressed={filter === f}
              onClick={() => setFilter(f)}
              className={cn(
                'h-10 shrink-0 rounded-full px-4 text-sm font-semibold transition',
                filter === f
                  ? 'bg-gradient-to-r from-deep-600 to-aqua-600 text-white shadow-[0_8px_24px_-10px_rgb(34_211_238/0.7)]'
                  : 'bg-white/5 text-mist-300 ring-1 ring-white/10 hover:bg-white/10 hover:text-white',
              )}
            >
              {FILTER_LABEL[f]}
            </button>
          ))}
        </div>
      </div>

      {/* Phones: the member block first, then the news and threads, then stats; wide screens: a sidebar. */}
      <div className="mt-8 grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:grid-rows-[auto_1fr]">
        <div className="flex flex-col gap-6 lg:col-start-2 lg:row-start-1">
          {!permissions.authenticated ? (
            <JoinTheDiscussion />
          ) : permissions.canComment ? (
            <>
              <WelcomeBanner
                name={permissions.firstName ?? permissions.username ?? 'member'}
                composing={composing}
                onStartThread={() => {
                  setComposing(true);
                  // The form mounts on this render; focus its title once it is there.
                  requestAnimationFrame(() => titleRef.current?.focus());
                }}
              />
              {composing && <NewThreadForm titleRef={titleRef} />}
            </>
          ) : (
            <UpgradeToPost />
          )}
        </div>
        <div className="flex min-w-0 flex-col gap-6 lg:col-start-1 lg:row-span-2 lg:row-start-1">
          {news.show && <NewsPanel type={news.type} search={search} linkedId={link?.kind === 'news' ? link.id : undefined} />}
          {filter !== 'news' && (
            <ThreadList
              posts={threads.data ?? []}
              loading={threads.isPending}
              failed={threads.isError ? { retry: () => void threads.refetch(), retrying: threads.isFetching } : null}
              canModerate={permissions.isAdmin}
              emptyText={search ? 'No threads match your search.' : 'No threads yet. Start the first one!'}
            />
          )}
        </div>
        <aside className="flex flex-col gap-6 self-start lg:col-start-2 lg:row-start-2" aria-label="Forum figures">
          <ForumStats />
          {showAds && <AdPlaceholder />}
        </aside>
      </div>
    </PageContainer>
  );
}
