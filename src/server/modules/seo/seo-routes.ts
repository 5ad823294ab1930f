import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema } from '../../../contracts/errors';
import { isUnlistedPath, PAGE_PATHS, UNLISTED_PATH_PREFIXES } from '../../../contracts/routes';
import { channelIdSchema } from '../../../contracts/radio';
import { MINUTE_MS } from '../../../contracts/time';
import { CachedRead, ChangeNotices } from '../../lib/cached-read';
import { notFound } from '../../lib/errors';
import { access } from '../../plugins/access';
import { mediaReply } from '../../plugins/reply-schemas';
import { approvedThreads } from '../news/forum-repository';
import { FORUM_CHANNEL } from '../news/forum-routes';
import { NEWS_CHANNEL } from '../news/news';
import { rankingCandidates } from '../news/news-repository';
import { publicProfiles } from '../profiles/profiles-repository';
import { atomDocument, robotsText, rssDocument, sitemapDocument, type Feed, type SitemapUrl } from './feeds';
import { icoFromPng } from './favicon';
import type { NowPlaying } from '../radio/now-playing';

export interface SeoOptions {
  /** The web build: /favicon.ico is made from its 32 px icon. */
  webRoot: string;
  nowPlaying: NowPlaying;
}

/** Entries per feed, and URLs per kind in the sitemap (its limit is 50,000 in all). */
const FEED_ENTRIES = 50;
const SITEMAP_PER_KIND = 10_000;
/** Feeds and the sitemap are dropped by changes; this bounds a missed notification. */
const DOCUMENT_MAX_AGE_MS = 10 * MINUTE_MS;
const PUBLIC_CACHE = 'public, max-age=300';

type App = Parameters<FastifyPluginAsyncZod<SeoOptions>>[0];

/** Page paths without parameters that anyone may see: the sitemap's fixed part. */
const LISTED_PAGES = PAGE_PATHS.filter((p) => !p.includes(':') && !isUnlistedPath(p));

const plugin: FastifyPluginAsyncZod<SeoOptions> = async (app, opts) => {
  const { nowPlaying } = opts;
  const { db } = app.database;
  const { PUBLIC_URL: publicUrl } = app.config;
  const news = new ChangeNotices(app, NEWS_CHANNEL);
  const forum = new ChangeNotices(app, FORUM_CHANNEL);

  const send = (reply: FastifyReply, type: string, body: string | Buffer) => reply.header('cache-control', PUBLIC_CACHE).type(type).send(body);

  app.get(
    '/robots.txt',
    {
      config: { access: access.public, sharedAnswer: true },
      schema: { response: { 200: mediaReply('text/plain', 'What crawlers may read, and where the sitemap is.') } },
    },
    async (_req, reply) => send(reply, 'text/plain; charset=utf-8', robotsText(publicUrl, UNLISTED_PATH_PREFIXES)),
  );

  const sitemap = new CachedRead<void, string>({
    load: async () => {
      const [threads, profiles, items] = await Promise.all([
        approvedThreads(db, SITEMAP_PER_KIND),
        publicProfiles(db, SITEMAP_PER_KIND),
        rankingCandidates(db, SITEMAP_PER_KIND),
      ]);
      const urls: SitemapUrl[] = [
        ...LISTED_PAGES.map((p) => ({ loc: `${publicUrl}${p}` })),
        ...threads.map((t) => ({ loc: `${publicUrl}/forum/${t.id}`, lastmod: t.createdAt })),
        ...items.map((i) => ({ loc: `${publicUrl}/news/${encodeURIComponent(i.id)}`, lastmod: i.pubDate })),
        ...profiles.map((p) => ({ loc: `${publicUrl}/profile/${p.id}`, lastmod: p.updatedAt })),
      ];
      return sitemapDocument(urls);
    },
    droppedBy: [news, forum],
    maxAgeMs: DOCUMENT_MAX_AGE_MS,
    lastValueWhileDatabaseAway: true,
  });
  app.get(
    '/sitemap.xml',
    {
      config: { access: access.public, sharedAnswer: true },
      schema: { response: { 200: mediaReply('application/xml', 'The public pages, forum threads, news articles and public profiles.') } },
    },
    async (_req, reply) => send(reply, 'application/xml; charset=utf-8', await sitemap.get()),
  );

  const favicon = readFavicon(opts.webRoot);
  app.get(
    '/favicon.ico',
    {
      config: { access: access.public, sharedAnswer: true },
      schema: { response: { 200: mediaReply('image/x-icon', "The station's icon."), 404: errorEnvelopeSchema } },
    },
    async (_req, reply) => {
      if (!favicon) throw notFound('No icon: the web app is not built.');
      return reply.header('cache-control', 'public, max-age=86400').type('image/x-icon').send(favicon);
    },
  );

  feedRoutes(app, news, nowPlaying);
};

/** RSS and Atom feeds of the news and of what each channel played, kept until a change (or ten minutes). */
function feedRoutes(app: App, news: ChangeNotices, nowPlaying: NowPlaying): void {
  const { db } = app.database;
  const { PUBLIC_URL: publicUrl, STATION_GENRE: genre, STATION_LANGUAGE: language } = app.config;
  const send = (reply: FastifyReply, type: string, body: string) => reply.header('cache-control', PUBLIC_CACHE).type(type).send(body);
  const newsFeed = new CachedRead<void, Feed>({
    load: async () => ({
      title: 'Deep House Radio news',
      description: 'Deep house news, as Deep House Radio reads it.',
      link: `${publicUrl}/news`,
      self: `${publicUrl}/feeds/news.rss`,
      language,
      entries: (await rankingCandidates(db, FEED_ENTRIES)).map((i) => ({
        id: i.id,
        title: i.title,
        link: `${publicUrl}/news/${encodeURIComponent(i.id)}`,
        summary: i.description || `${i.title} (${i.source})`,
        published: i.pubDate,
      })),
    }),
    droppedBy: [news],
    maxAgeMs: DOCUMENT_MAX_AGE_MS,
    lastValueWhileDatabaseAway: true,
  });
  // What each channel played as its stream said (the public now-playing titles, kept in memory), not the
  // recognisers' identifications, which are a paid tier's benefit (docs/decisions/0008).
  const trackFeed = new CachedRead<string, Feed>({
    load: async (channel) => {
      const name = nowPlaying.channel(channel)?.name ?? channel;
      const page = `${publicUrl}/${encodeURIComponent(channel)}`;
      return {
        title: `${name}: recently played on Deep House Radio`,
        description: `The tracks ${name} played recently (${genre}).`,
        link: page,
        self: `${publicUrl}/feeds/${encodeURIComponent(channel)}-tracks.rss`,
        language,
        entries: nowPlaying
          .playedSongs(channel)
          .filter((s) => s.title || s.artist)
          .slice(0, FEED_ENTRIES)
          .map((s) => ({
            id: `${channel}-${s.id}`,
            title: s.artist && s.title ? `${s.artist} – ${s.title}` : s.title || s.artist,
            link: page,
            summary: [s.artist, s.title, s.album].filter(Boolean).join(' – '),
            published: new Date(s.startedAt),
          })),
      };
    },
    maxAgeMs: DOCUMENT_MAX_AGE_MS,
  });
  nowPlaying.changeListeners.push((state) => trackFeed.drop(state.channel));

  const asRss = (feed: Feed) => rssDocument(feed);
  const asAtom = (feed: Feed) => atomDocument({ ...feed, self: feed.self.replace(/\.rss$/, '.atom') });
  const feedConfig = { access: access.public, sharedAnswer: true } as const;
  const rssReply = { 200: mediaReply('application/rss+xml', 'An RSS 2.0 feed.') };
  const atomReply = { 200: mediaReply('application/atom+xml', 'An Atom 1.0 feed.') };
  app.get('/feeds/news.rss', { config: feedConfig, schema: { response: rssReply } }, async (_req, reply) =>
    send(reply, 'application/rss+xml; charset=utf-8', asRss(await newsFeed.get())),
  );
  app.get('/feeds/news.atom', { config: feedConfig, schema: { response: atomReply } }, async (_req, reply) =>
    send(reply, 'application/atom+xml; charset=utf-8', asAtom(await newsFeed.get())),
  );
  const channelParams = z.object({ channel: channelIdSchema });
  const knownChannel = (channel: string) => {
    if (!nowPlaying.channel(channel)) throw notFound(`Unknown channel '${channel}'`, 'unknown_channel');
    return channel;
  };
  app.get('/feeds/:channel-tracks.rss', { config: feedConfig, schema: { params: channelParams, response: rssReply } }, async (req, reply) =>
    send(reply, 'application/rss+xml; charset=utf-8', asRss(await trackFeed.get(knownChannel(req.params.channel)))),
  );
  app.get('/feeds/:channel-tracks.atom', { config: feedConfig, schema: { params: channelParams, response: atomReply } }, async (req, reply) =>
    send(reply, 'application/atom+xml; charset=utf-8', asAtom(await trackFeed.get(knownChannel(req.params.channel)))),
  );
}

/** The build's 32 px PNG icon as an .ico (browsers and crawlers still ask for /favicon.ico), or null without a build. */
function readFavicon(webRoot: string): Buffer | null {
  const png = path.join(webRoot, 'icons', 'favicon-32.png');
  return fs.existsSync(png) ? icoFromPng(fs.readFileSync(png)) : null;
}

export const seoRoutes = fp(plugin, { name: 'seo' });
