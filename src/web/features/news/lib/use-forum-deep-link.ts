import { useParams, useLocation } from 'react-router';

/** What a shared address names inside the forum page: a thread or a news article. */
export type ForumDeepLink = { kind: 'thread' | 'news'; id: string } | null;

const KINDS: [prefix: string, kind: NonNullable<ForumDeepLink>['kind']][] = [
  ['/forum/', 'thread'],
  ['/news/', 'news'],
];

/** /forum/:id and /news/:id (the addresses in the sitemap and link previews) open the forum page on that item. */
export function useForumDeepLink(): ForumDeepLink {
  const { id } = useParams<{ id?: string }>();
  const { pathname } = useLocation();
  const kind = KINDS.find(([prefix]) => pathname.startsWith(prefix))?.[1];
  return kind && id ? { kind, id } : null;
}
