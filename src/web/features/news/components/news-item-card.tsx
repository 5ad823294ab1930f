import { ExternalLink, Newspaper } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { NewsItem } from '../../../../contracts/news';
import { Badge } from '../../../components/ui/badge';
import { isExternalLink, newsAge } from '../lib/news-age';

const TYPE_LABEL = { rss: 'Feed', news: 'News', event: 'Event', release: 'Release' } as const;
const TYPE_TONE = { rss: 'neutral', news: 'cyan', event: 'violet', release: 'gold' } as const;

/** One news item: image, linked title (the source opens in a new tab), description, source and age. */
export function NewsItemCard({ item, children }: { item: NewsItem; children?: ReactNode }) {
  const external = isExternalLink(item.link);
  const titleClass = 'font-display text-base font-semibold leading-snug text-white transition hover:text-aqua-200 sm:text-lg';
  return (
    <article
      className="group rounded-2xl border border-white/5 bg-white/[0.03] p-4 transition hover:border-white/10 hover:bg-white/[0.05] sm:p-5"
      aria-labelledby={`news-${item.id}`}
    >
      <div className="flex gap-3.5 sm:gap-4">
        <div className="relative size-16 shrink-0 overflow-hidden rounded-xl bg-gradient-to-br from-deep-700/60 to-aqua-700/30 ring-1 ring-white/10 sm:size-24">
          {item.imageUrl ? (
            <img
              src={item.imageUrl}
              alt=""
              loading="lazy"
              decoding="async"
              referrerPolicy="no-referrer"
              className="size-full object-cover"
              onError={(e) => (e.currentTarget.style.visibility = 'hidden')}
            />
          ) : (
            <Newspaper className="absolute inset-0 m-auto size-7 text-white/40" aria-hidden="true" />
          )}
        </div>
        <div className="min-w-0 flex-1">
          <div className="mb-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-mist-400">
            <Badge tone={TYPE_TONE[item.type]}>{TYPE_LABEL[item.type]}</Badge>
            <span className="truncate font-medium text-mist-300">{item.source}</span>
            <span aria-hidden="true">·</span>
            <time dateTime={item.pubDate}>{newsAge(item.pubDate)}</time>
          </div>
          <h3 id={`news-${item.id}`} className="break-words">
            {external ? (
              <a href={item.link} target="_blank" rel="noopener noreferrer" className={titleClass}>
                {item.title}
                <ExternalLink className="ml-1.5 inline size-3.5 align-baseline text-mist-400" aria-label="(opens in a new tab)" />
              </a>
            ) : (
              <Link to={item.link} className={titleClass}>
                {item.title}
              </Link>
            )}
          </h3>
          {item.description && <p className="mt-1.5 line-clamp-3 text-sm leading-relaxed text-mist-300">{item.description}</p>}
        </div>
      </div>
      {children}
    </article>
  );
}
