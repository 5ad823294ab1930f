import type { NewsItem, NewsSource } from '../../../contracts/news';
import type { NewsItemRow } from '../../db/schema';
import type { SourceWithCount } from './news-repository';

export function toNewsItem(row: NewsItemRow): NewsItem {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    link: row.link,
    imageUrl: row.imageUrl,
    source: row.source,
    pubDate: row.pubDate.toISOString(),
    type: row.type,
  };
}

export function toNewsSource(row: SourceWithCount): NewsSource {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    url: row.url,
    itemType: row.itemType,
    priority: row.priority,
    paused: row.paused,
    lastFetchedAt: row.lastFetchedAt?.toISOString() ?? null,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    errorCount: row.errorCount,
    itemCount: row.itemCount,
    createdAt: row.createdAt.toISOString(),
    httpStatus: row.httpStatus,
    nextFetchAt: row.paused ? null : (row.nextFetchAt?.toISOString() ?? null),
    failingSince: row.failingSince?.toISOString() ?? null,
    autoPausedAt: row.autoPausedAt?.toISOString() ?? null,
    report: row.lastReport,
  };
}
