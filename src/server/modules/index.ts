/**
 * The composition root: the objects modules share are made here, once, and handed to the plugins that
 * use them as options. Every dependency between modules is then an import of a type and an argument
 * (docs/decisions/0035-composition-root.md): no module reaches another through a Fastify decorator.
 */
import type { FastifyInstance } from 'fastify';
import { LiveEvents } from './events/live-events';
import { eventsRoutes } from './events/events-routes';
import { accountRoutes } from './account/account-routes';
import { privacyRetentionPlugin } from './account/privacy-retention-plugin';
import { adminRoutes } from './admin/admin-routes';
import { dashboardRoutes } from './admin/dashboard-routes';
import { bulkRunsRoutes } from './admin/bulk-runs-routes';
import { moderationQueueRoutes } from './admin/moderation-queue-routes';
import { adminAuthRoutes } from './auth/admin-auth-routes';
import { authHousekeepingPlugin } from './auth/auth-housekeeping-plugin';
import { authRoutes } from './auth/auth-routes';
import { passwordRoutes } from './auth/password-routes';
import { PlatformSubscriberRegistry } from './auth/platform-subscribers';
import { chatPlugin } from './chat/chat-plugin';
import { CommentsCache } from './comments/comments-cache';
import { commentsRoutes } from './comments/comments-routes';
import { moderationRoutes } from './comments/moderation-routes';
import { contactRoutes } from './contact/contact-routes';
import { mediaRoutes } from './media/media-routes';
import { assignTierRoutes } from './members/assign-tier-routes';
import { mixesPlugin } from './mixes/mixes-plugin';
import { createMixes, type Mixes } from './mixes/mix-library';
import { newsPlugin } from './news/news-plugin';
import { News, NEWS_CHANNEL } from './news/news';
import { platformsPlugin } from './platforms/platforms-plugin';
import { profilesRoutes } from './profiles/profiles-routes';
import { channelsRoutes } from './radio/channels-routes';
import { mountPath } from './radio/icecast-status';
import { IcyTitles } from './radio/icy-titles';
import { NowPlaying } from './radio/now-playing';
import { nowPlayingApiRoutes, type NowPlayingArt } from './radio/nowplaying-routes';
import { radioPlugin } from './radio/radio-plugin';
import { analyticsPlugin } from './analytics/analytics-plugin';
import { streamRoutes } from './radio/stream-routes';
import { MONITOR_SUBJECT, StreamTokens, withToken } from './radio/stream-tokens';
import { PageHeads } from './seo/page-heads';
import { seoRoutes } from './seo/seo-routes';
import { newsletterRoutes } from './shop/newsletter-routes';
import { productImageRoutes } from './shop/product-image-routes';
import { shopRoutes } from './shop/shop-routes';
import { submissionsRoutes } from './submissions/submissions-routes';
import { healthRoutes } from './system/health-routes';
import { siteConfigRoutes } from './system/site-config-routes';
import { TrackMonitor } from './tracks/track-monitor';
import { tracksPlugin } from './tracks/tracks-plugin';
import { HeartbeatBuffer } from './visitors/heartbeat-buffer';
import { visitorsHousekeepingPlugin } from './visitors/visitors-housekeeping-plugin';
import { visitorsRoutes } from './visitors/visitors-routes';
import { ChangeNotices } from '../lib/cached-read';
import { FORUM_CHANNEL } from './news/forum-routes';

/** The objects the modules share; tests, benches and scripts reach them through `buildApp(…).modules`. */
export interface Modules {
  /** The live event stream (SSE): its clients, audiences and first frames. */
  events: LiveEvents;
  /** Live metadata per channel and the Icecast poller. */
  nowPlaying: NowPlaying;
  /** Signs and checks the premium mounts' listener tokens. */
  streamTokens: StreamTokens;
  /** The in-band title readers, one connection per channel mount (started with the background jobs when ICY_TITLES is on). */
  icyTitles: IcyTitles;
  /** Identifies the playing track (AudD/ACRCloud) and stores the history. */
  trackMonitor: TrackMonitor;
  /** The identified track's artwork, set by the tracks module and read by the AzuraCast documents. */
  nowPlayingArt: NowPlayingArt;
  /** Sign-in by link and email verification ask Patreon and Buy Me a Coffee's records through it. */
  platformSubscribers: PlatformSubscriberRegistry;
  commentsCache: CommentsCache;
  news: News;
  /** Visitors' heartbeats waiting for their write (tests flush it before reading). */
  heartbeats: HeartbeatBuffer;
  mixes: Mixes;
  /** Each page's head for crawlers and link previews (plugins/web.ts writes it into the HTML). */
  pageHeads: PageHeads;
}

/** Makes the shared objects. Infrastructure (config, database, mail, storage, metrics) is the app's own. */
function createModules(app: FastifyInstance): Modules {
  const { config, database } = app;
  const events = new LiveEvents();
  const { STATION_GENRE: genre, STATION_COUNTRY: country, STATION_LANGUAGE: language } = config;
  const listing = { genre, country, language };
  const nowPlaying = new NowPlaying(database, events.hub, app.log.child({ module: 'now-playing' }), listing);
  const streamTokens = new StreamTokens(config.STREAM_AUTH_KEY);
  // The monitor listens to the premium mount as DHR itself: a short-lived token for its own subject.
  const sampleUrl = (ch: { streamUrl: string }) => withToken(ch.streamUrl, streamTokens.issue(MONITOR_SUBJECT, mountPath(ch.streamUrl) ?? '/').token);
  return {
    events,
    nowPlaying,
    streamTokens,
    icyTitles: new IcyTitles(nowPlaying, streamTokens, app.log.child({ module: 'icy-titles' })),
    trackMonitor: new TrackMonitor(database, nowPlaying, config, app.log.child({ module: 'track-monitor' }), sampleUrl),
    nowPlayingArt: { identified: () => null },
    platformSubscribers: new PlatformSubscriberRegistry(),
    commentsCache: new CommentsCache(app),
    news: new News(app),
    heartbeats: new HeartbeatBuffer(database.db, app.log.child({ module: 'visitors' })),
    mixes: createMixes(app),
    pageHeads: new PageHeads({
      db: database.db,
      publicUrl: config.PUBLIC_URL,
      listing,
      nowPlaying,
      droppedBy: [new ChangeNotices(app, NEWS_CHANNEL), new ChangeNotices(app, FORUM_CHANNEL)],
    }),
  };
}

/** Registers every module's routes, jobs and listeners, by domain, with the objects each one uses. */
export async function registerModules(app: FastifyInstance, webRoot: string): Promise<Modules> {
  const m = createModules(app);
  const { events, nowPlaying, platformSubscribers, commentsCache } = m;
  await app.register(healthRoutes);
  await app.register(platformsPlugin, { platformSubscribers });
  await app.register(adminRoutes);
  await app.register(dashboardRoutes, { nowPlaying });
  await app.register(bulkRunsRoutes);
  await app.register(authRoutes, { platformSubscribers });
  await app.register(passwordRoutes, { platformSubscribers });
  await app.register(authHousekeepingPlugin);
  await app.register(adminAuthRoutes);
  await app.register(assignTierRoutes);
  await app.register(siteConfigRoutes);
  await app.register(channelsRoutes);
  await app.register(eventsRoutes, { events });
  await app.register(radioPlugin, { nowPlaying, icyTitles: m.icyTitles, events });
  await app.register(nowPlayingApiRoutes, { nowPlaying, art: m.nowPlayingArt, events });
  await app.register(streamRoutes, { nowPlaying, streamTokens: m.streamTokens });
  await app.register(analyticsPlugin, { nowPlaying });
  await app.register(tracksPlugin, { monitor: m.trackMonitor, nowPlaying, art: m.nowPlayingArt, events });
  await app.register(mediaRoutes);
  await app.register(mixesPlugin, { mixes: m.mixes });
  await app.register(commentsRoutes, { cache: commentsCache });
  await app.register(moderationRoutes, { commentsCache });
  await app.register(chatPlugin, { events });
  await app.register(moderationQueueRoutes);
  await app.register(profilesRoutes);
  await app.register(contactRoutes);
  await app.register(newsPlugin, { news: m.news });
  await app.register(visitorsRoutes, { heartbeats: m.heartbeats });
  await app.register(visitorsHousekeepingPlugin);
  await app.register(submissionsRoutes);
  await app.register(shopRoutes);
  await app.register(newsletterRoutes);
  await app.register(productImageRoutes);
  await app.register(accountRoutes, { commentsCache });
  await app.register(privacyRetentionPlugin);
  await app.register(seoRoutes, { webRoot, nowPlaying });
  return m;
}
