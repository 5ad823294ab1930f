import { isUnlistedPath, pagePathPattern } from '../../../contracts/routes';
import { tierLabel } from '../../../contracts/tier-table';
import { jsonForScript, stationStructuredData, type StationListing } from '../../../contracts/structured-data';
import { MINUTE_MS } from '../../../contracts/time';
import type { Db } from '../../db/client';
import { CachedRead, type ChangeNotices } from '../../lib/cached-read';
import { findForumPost } from '../news/forum-repository';
import { findNewsItem } from '../news/news-repository';
import { publicProfileName } from '../profiles/profiles-repository';
import type { NowPlaying } from '../radio/now-playing';
import { capText, renderHead, type FeedLink, type PageHead } from './page-head';

const SITE = 'Deep House Radio';
const HOME_TITLE = `${SITE} — Live Deep House, 24/7`;
const HOME_DESCRIPTION =
  'Deep House Radio streams hand-picked deep house 24/7. Listen free at 128kbps, or join a membership for 320kbps, track identification, an exclusive channel and a 1TB+ VIP mix library.';

/** The station's news feeds, linked from every page. */
export const NEWS_FEEDS: readonly FeedLink[] = [
  { type: 'application/rss+xml', title: `${SITE} news (RSS)`, path: '/feeds/news.rss' },
  { type: 'application/atom+xml', title: `${SITE} news (Atom)`, path: '/feeds/news.atom' },
];

/** A channel's recently played tracks as feeds. */
export function trackFeeds(channelId: string, channelName: string): FeedLink[] {
  const id = encodeURIComponent(channelId);
  return [
    { type: 'application/rss+xml', title: `${channelName}: recently played (RSS)`, path: `/feeds/${id}-tracks.rss` },
    { type: 'application/atom+xml', title: `${channelName}: recently played (Atom)`, path: `/feeds/${id}-tracks.atom` },
  ];
}

/** The pages with a head of their own; every other page path gets the station's title under its own address. */
const PAGE_TEXT: Readonly<Record<string, { title: string; description: string }>> = {
  '/': { title: HOME_TITLE, description: HOME_DESCRIPTION },
  '/vip': {
    title: `VIP mix library | ${SITE}`,
    description: `The VIP library: hand-picked deep house mixes to stream or download, for ${tierLabel('vip')} members of Deep House Radio.`,
  },
  '/shop': { title: `Shop | ${SITE}`, description: 'Deep House Radio merchandise and memberships.' },
  '/forum': { title: `Forum and news | ${SITE}`, description: 'Deep house news from around the web and the Deep House Radio community forum.' },
  '/news': { title: `News | ${SITE}`, description: 'The latest deep house news, as Deep House Radio reads it.' },
  '/upload': { title: `Submit a mix | ${SITE}`, description: 'DJs: send Deep House Radio your deep house mix for airplay.' },
  '/track-ident': { title: `Track identification | ${SITE}`, description: 'What was that track? Identify what plays on Deep House Radio.' },
  '/track-history': { title: `Recently played | ${SITE}`, description: 'The tracks Deep House Radio played recently.' },
  '/privacy': { title: `Privacy | ${SITE}`, description: 'How Deep House Radio handles your data.' },
  '/player': { title: `Player | ${SITE}`, description: 'The Deep House Radio pop-out player: live deep house, 24/7.' },
};

const THREAD = pagePathPattern('/forum/:id');
const ARTICLE = pagePathPattern('/news/:id');
const PROFILE = pagePathPattern('/profile/:id');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A head read from the database (a thread's, an article's, a profile's) is kept this long at most. */
const DATA_HEAD_MAX_AGE_MS = MINUTE_MS;
/** Distinct data pages whose heads are kept; the pages crawlers ask for most stay, rare ones are read again. */
const DATA_HEADS_KEPT = 2_000;

export interface PageHeadsDeps {
  db: Db;
  publicUrl: string;
  listing: StationListing;
  nowPlaying: NowPlaying;
  /** Changes that drop the heads read from the database (forum, news). */
  droppedBy: readonly ChangeNotices[];
}

/** The last segment of a path, decoded by the web plugin already, or undefined. */
function lastSegment(pathname: string): string {
  return pathname.replace(/\/+$/, '').split('/').pop() ?? '';
}

/**
 * Each URL's head (title, description, link preview, canonical, feeds, JSON-LD), rendered on the server
 * (docs/listing.md): pages with fixed text are rendered once; a channel's page again
 * when what it plays changes; a thread's, an article's and a profile's are read once and kept in a
 * CachedRead (dropped by the forum's and the news' change notices, and after a minute at most).
 */
export class PageHeads {
  private readonly fixed = new Map<string, string>();
  private readonly channels = new Map<string, { version: number; head: string }>();
  private readonly fromData: CachedRead<string, string>;
  private site = { signature: '', jsonLd: '' };
  private siteCheckedAt = 0;

  constructor(private readonly deps: PageHeadsDeps) {
    this.fromData = new CachedRead<string, string>({
      load: (pathname) => this.loadDataHead(pathname),
      droppedBy: deps.droppedBy,
      maxAgeMs: DATA_HEAD_MAX_AGE_MS,
      maxKeys: DATA_HEADS_KEPT,
      lastValueWhileDatabaseAway: true,
    });
  }

  /** The head of the page at `pathname` (a decoded path); `found` is false for the app's 404 page. */
  async headFor(pathname: string, found: boolean): Promise<string> {
    this.refreshSite();
    const path = pathname === '/' ? '/' : pathname.replace(/\/+$/, '');
    if (!found) return this.render({ title: `Page not found | ${SITE}`, description: HOME_DESCRIPTION, path: encodeURI(path), noindex: true });
    const channel = this.deps.nowPlaying.channel(path.slice(1));
    if (channel && path === `/${channel.id}`) return this.channelHead(channel.id);
    if (THREAD.test(path) || ARTICLE.test(path) || PROFILE.test(path)) return this.fromData.get(path).catch(() => this.fixedHead(path));
    return this.fixedHead(path);
  }

  private render(head: PageHead): string {
    return renderHead({ feeds: NEWS_FEEDS, ...head }, this.deps.publicUrl, this.site.jsonLd);
  }

  /** The JSON-LD names the channels: rebuilt (and every kept head dropped) when they change. */
  private refreshSite(): void {
    // Channels change rarely (an admin's edit, read by the now-playing poller): looked at once a second, not per request.
    const now = Date.now();
    if (now - this.siteCheckedAt < 1000) return;
    this.siteCheckedAt = now;
    const { nowPlaying, publicUrl, listing } = this.deps;
    const channels = nowPlaying.channelIds().map((id) => {
      const row = nowPlaying.channel(id);
      return { id, name: row?.name ?? id, freeStreamUrl: row?.freeStreamUrl ?? null };
    });
    const signature = JSON.stringify(channels);
    if (signature === this.site.signature) return;
    this.site = { signature, jsonLd: jsonForScript(stationStructuredData(publicUrl, channels, listing)) };
    this.fixed.clear();
    this.channels.clear();
    this.fromData.drop();
  }

  private fixedHead(path: string): string {
    let head = this.fixed.get(path);
    if (head === undefined) {
      const text = PAGE_TEXT[path] ?? { title: SITE, description: HOME_DESCRIPTION };
      head = this.render({ ...text, path: encodeURI(path), noindex: isUnlistedPath(path) });
      // Fixed paths only: a path with a parameter is not kept here (any number of them could be asked for).
      if (this.fixed.size < 500) this.fixed.set(path, head);
    }
    return head;
  }

  private channelHead(id: string): string {
    const { nowPlaying } = this.deps;
    const state = nowPlaying.state(id);
    const version = state?.version ?? 0;
    const kept = this.channels.get(id);
    if (kept?.version === version) return kept.head;
    const name = nowPlaying.channel(id)?.name ?? id;
    const track = state?.online ? [state.artist, state.title].filter(Boolean).join(' – ') : '';
    const title = track ? `${name}: now playing ${track} | ${SITE}` : `${name} | ${SITE}`;
    const description = `${name} on Deep House Radio: hand-picked deep house, live 24/7.${track ? ` Now playing: ${track}.` : ''}`;
    const head = this.render({ title, description, path: `/${encodeURIComponent(id)}`, feeds: [...trackFeeds(id, name), ...NEWS_FEEDS] });
    this.channels.set(id, { version, head });
    return head;
  }

  private async loadDataHead(path: string): Promise<string> {
    const { db } = this.deps;
    const id = lastSegment(path);
    const encoded = encodeURI(path);
    if (THREAD.test(path)) {
      const thread = UUID.test(id) ? await findForumPost(db, id) : undefined;
      if (!thread || thread.status !== 'approved')
        return this.render({ title: `Forum | ${SITE}`, description: PAGE_TEXT['/forum']?.description ?? '', path: encoded });
      return this.render({ title: `${capText(thread.title, 100)} | Forum | ${SITE}`, description: thread.body, path: encoded });
    }
    if (ARTICLE.test(path)) {
      const item = id.length <= 200 ? await findNewsItem(db, id) : undefined;
      if (!item) return this.render({ title: `News | ${SITE}`, description: PAGE_TEXT['/news']?.description ?? '', path: encoded });
      return this.render({ title: `${capText(item.title, 100)} | ${SITE}`, description: item.description || `${item.title} (${item.source})`, path: encoded });
    }
    // A private profile (or none) gets the generic title: its name is never in the page.
    const name = UUID.test(id) ? await publicProfileName(db, id) : undefined;
    if (!name) return this.render({ title: `Member profile | ${SITE}`, description: 'A member of the Deep House Radio community.', path: encoded });
    return this.render({
      title: `${capText(name, 60)} | ${SITE}`,
      description: `${capText(name, 60)} on Deep House Radio, the deep house community.`,
      path: encoded,
    });
  }
}
