import { RefreshCw, Rss, Globe } from 'lucide-react';
import { useId, useState } from 'react';
import type { NewsItem } from '../../../../contracts/news';
import { NEWS_EMPTY, NEWS_LIST_MAX, type NewsItemType } from '../../../../contracts/news-values';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { errorMessage } from '../../../lib/http';
import { useCrawler, useRssLatest } from '../api/get-news';
import { useRefreshNews } from '../api/refresh-news';
import { DiscussionToggle } from './discussion-toggle';
import { NewsItemCard } from './news-item-card';

type Tab = 'rss' | 'web';

export interface NewsPanelProps {
  /** Only items of this type (the forum's events and releases filters). */
  type?: NewsItemType;
  /** Text the forum's search box holds: items whose title, description or source contain it. */
  search?: string;
  /** An article a shared address names (/news/:id): the panel opens the tab that lists it. */
  linkedId?: string;
}

function matches(item: NewsItem, type: NewsItemType | undefined, search: string): boolean {
  if (type && item.type !== type) return false;
  if (!search) return true;
  const q = search.toLowerCase();
  return item.title.toLowerCase().includes(q) || item.description.toLowerCase().includes(q) || item.source.toLowerCase().includes(q);
}

/** RSS and web-source tabs with counts, Refresh, at most 25 items each. */
export function NewsPanel({ type, search = '', linkedId }: NewsPanelProps) {
  const [chosen, setTab] = useState<Tab | null>(null);
  const rss = useRssLatest();
  const web = useCrawler();
  // Until the listener picks a tab: the one listing a linked article, else RSS.
  const linkedOnWeb = Boolean(linkedId && !rss.data?.some((i) => i.id === linkedId) && web.data?.some((i) => i.id === linkedId));
  const tab: Tab = chosen ?? (linkedOnWeb ? 'web' : 'rss');
  const refresh = useRefreshNews();
  const id = useId();
  const lists: Record<Tab, NewsItem[]> = {
    rss: (rss.data ?? []).filter((i) => matches(i, type, search)).slice(0, NEWS_LIST_MAX),
    web: (web.data ?? []).filter((i) => matches(i, type, search)).slice(0, NEWS_LIST_MAX),
  };
  const active = tab === 'rss' ? rss : web;
  const items = lists[tab];
  // A list that could not be read has no count (it is not empty).
  const count = (t: Tab) => ((t === 'rss' ? rss : web).isError && lists[t].length === 0 ? '–' : String(lists[t].length));
  const tabs = [
    { id: 'rss' as const, label: `RSS Feeds (${count('rss')})`, Icon: Rss },
    { id: 'web' as const, label: `Web Sources (${count('web')})`, Icon: Globe },
  ];

  return (
    <Card padding="none" className="overflow-hidden" aria-labelledby={`${id}-title`} role="region">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-white/5 px-4 py-4 sm:px-6">
        <h2 id={`${id}-title`} className="font-display text-xl font-bold text-white">
          Scene News
        </h2>
        <Button variant="secondary" size="sm" onClick={() => refresh.mutate()} disabled={refresh.isPending} aria-label="Refresh news">
          <RefreshCw className={cn('size-4', refresh.isPending && 'animate-spin')} aria-hidden="true" />
          Refresh
        </Button>
      </div>
      <div role="tablist" aria-label="News sources" className="flex gap-1 overflow-x-auto px-3 pt-3 sm:px-5">
        {tabs.map(({ id: t, label, Icon }) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={`${id}-tab-${t}`}
            aria-selected={tab === t}
            aria-controls={`${id}-panel`}
            onClick={() => setTab(t)}
            className={cn(
              'inline-flex items-center gap-2 rounded-full px-3 py-2 text-[13px] font-semibold whitespace-nowrap transition sm:px-4 sm:text-sm',
              tab === t ? 'bg-white/10 text-white ring-1 ring-white/15' : 'text-mist-400 hover:bg-white/5 hover:text-white',
            )}
          >
            <Icon className="hidden size-4 sm:block" aria-hidden="true" />
            {label}
          </button>
        ))}
      </div>
      {refresh.isError && (
        <p role="alert" className="mx-4 mt-3 rounded-xl bg-rose-500/10 px-3 py-2 text-sm text-rose-200 sm:mx-6">
          {errorMessage(refresh.error, 'Refresh failed. Please try again.')}
        </p>
      )}
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${tab}`} className="space-y-3 p-3 sm:p-5">
        {active.isPending ? (
          <div className="py-10">
            <Spinner label="Loading news..." showLabel />
          </div>
        ) : active.isError && items.length === 0 ? (
          <LoadError what="the news" onRetry={() => void active.refetch()} retrying={active.isFetching} compact className="py-6" />
        ) : items.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-white/10 px-4 py-10 text-center text-sm text-mist-400">{NEWS_EMPTY[tab]}</p>
        ) : (
          items.map((item) => (
            <NewsItemCard key={item.id} item={item}>
              <DiscussionToggle discussionId={item.id} title={item.title} source={item.source} newsItem />
            </NewsItemCard>
          ))
        )}
      </div>
    </Card>
  );
}
