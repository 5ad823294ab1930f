/** Query keys of the news feature. The public lists are keyed by their path (the default query function reads it). */
export const newsKeys = {
  rss: ['/api/rss/latest'] as const,
  web: ['/api/crawler/all'] as const,
  prioritized: ['/api/articles/prioritized'] as const,
  forum: ['forum'] as const,
  forumList: (category: string, search: string) => ['forum', category, search] as const,
  sources: ['admin', 'news-sources'] as const,
};
