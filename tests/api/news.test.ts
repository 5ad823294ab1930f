import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMENT_MESSAGES } from '../../src/contracts/community';
import { NEWS_EMPTY, NEWS_MESSAGES, type ForumPost, type NewsItem, type NewsSource } from '../../src/contracts/news';
import { DAY_MS, HOUR_MS } from '../../src/contracts/time';
import { commentBans, forumPosts, moderationLog, newsItems, newsSources } from '../../src/server/db/schema';
import { createNewsPoller } from '../../src/server/modules/news/news-poller';
import { rankItems, rankScore } from '../../src/server/modules/news/news-ranking';
import { createTestApp, memberWithRole, type TestMember } from '../support/app';
import { client } from '../support/auth-client';
import { atom, rss, startFeedServer, type FeedServer } from '../support/feed-server';

/** News ingestion, the news API, the sources admin and the forum, against feed servers on loopback. */

type App = Awaited<ReturnType<typeof createTestApp>>;

async function getJson<T>(app: App, url: string, cookie?: string): Promise<T> {
  const res = await app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
}

async function sources(app: App): Promise<NewsSource[]> {
  return (await app.database.db.select().from(newsSources)).map((s) => ({ ...s }) as unknown as NewsSource);
}

describe('news ingestion from loopback feeds (NEWS_ALLOW_PRIVATE=true)', () => {
  let server: FeedServer;
  let app: App;
  let rssItems: Parameters<typeof rss>[0];
  let etagHits = 0;

  beforeAll(async () => {
    server = await startFeedServer();
    rssItems = [
      {
        title: 'Kerri Chandler returns to Dublin',
        link: 'https://scene.example/kerri',
        guid: 'kerri-1',
        description: '<p>A <b>six-hour</b> set &amp; more</p>',
        extra: '<enclosure url="https://scene.example/kerri.jpg" length="10" type="image/jpeg"/>',
      },
      { title: 'Vinyl pressing plants catch up', link: 'https://scene.example/vinyl', extra: '<media:thumbnail url="https://scene.example/vinyl.jpg"/>' },
    ];
    server.route('/rss.xml', (req, res) => {
      const body = rss(rssItems);
      const etag = `"${Buffer.from(body).length}"`;
      if (req.headers['if-none-match'] === etag) {
        etagHits += 1;
        return res.writeHead(304).end();
      }
      res.writeHead(200, { 'content-type': 'application/rss+xml', etag }).end(body);
    });
    server.route('/atom.xml', (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/atom+xml' }).end(
        atom([
          {
            title: 'Label EP out now',
            id: 'urn:ep:9',
            link: 'https://label.example/ep9',
            summary: '&lt;p&gt;Four deep cuts&lt;/p&gt;',
            extra: '<media:content url="https://label.example/ep9.jpg" medium="image"/>',
          },
        ]),
      ),
    );
    server.route('/broken.xml', (_req, res) => res.writeHead(200, { 'content-type': 'application/rss+xml' }).end('<rss><channel><item><title>half'));
    server.route('/page.html', (_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><head><title>A page</title></head><body>no feed</body></html>'),
    );
    server.route('/robots.txt', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n'));
    server.route('/events/night', (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          '<!doctype html><html><head><meta property="og:title" content="Warehouse night"><meta property="og:description" content="Deep house till late"><meta property="og:image" content="/night.jpg"></head><body></body></html>',
        ),
    );
    server.route('/private/page', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Secret</title></head></html>'));
    server.route('/loop', (_req, res) => res.writeHead(302, { location: '/loop2' }).end());
    server.route('/loop2', (_req, res) => res.writeHead(302, { location: '/loop' }).end());
    server.route('/huge.xml', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      const chunk = Buffer.alloc(256 * 1024, ' ');
      let sent = 0;
      const pump = () => {
        while (sent < 50 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    server.route('/slow.xml', () => undefined);

    const feeds = [
      server.url('/rss.xml'),
      server.url('/atom.xml'),
      server.url('/broken.xml'),
      server.url('/page.html'),
      server.url('/loop'),
      server.url('/huge.xml'),
      `web:${server.url('/events/night')}`,
      `web:${server.url('/private/page')}`,
    ].join(',');
    app = await createTestApp({ NEWS_ALLOW_PRIVATE: 'true', NEWS_FEEDS: feeds });
  });

  it('seeds NEWS_FEEDS as sources on the first start and shows the seeded station news before any fetch', async () => {
    const rows = await sources(app);
    expect(rows).toHaveLength(8);
    expect(rows.filter((s) => s.kind === 'web')).toHaveLength(2);
    const latest = await getJson<NewsItem[]>(app, '/api/rss/latest');
    expect(latest.map((i) => i.id)).toContain('news-residents-winter');
    expect(await getJson<NewsItem[]>(app, '/api/crawler/all')).toEqual([]);
  });

  it('fetches every source, stores RSS, Atom and web items, and marks each failure with its reason', async () => {
    expect(await app.modules.news.poller.poll('scheduled')).toBe(8);
    // Queued: a second poll finds nothing due; the fetches run in the background.
    expect(await app.modules.news.poller.poll('scheduled')).toBe(0);
    await app.modules.news.poller.idle();
    await app.modules.news.changed();

    const latest = await getJson<NewsItem[]>(app, '/api/rss/latest');
    const kerri = latest.find((i) => i.title === 'Kerri Chandler returns to Dublin');
    expect(kerri).toMatchObject({
      description: 'A six-hour set & more',
      imageUrl: 'https://scene.example/kerri.jpg',
      link: 'https://scene.example/kerri',
      type: 'rss',
      source: '127.0.0.1',
    });
    expect(latest.find((i) => i.title === 'Vinyl pressing plants catch up')?.imageUrl).toBe('https://scene.example/vinyl.jpg');
    expect(latest.find((i) => i.title === 'Label EP out now')).toMatchObject({ description: 'Four deep cuts', imageUrl: 'https://label.example/ep9.jpg' });

    const web = await getJson<NewsItem[]>(app, '/api/crawler/all');
    expect(web).toHaveLength(1);
    expect(web[0]).toMatchObject({
      title: 'Warehouse night',
      description: 'Deep house till late',
      imageUrl: server.url('/night.jpg'),
      link: server.url('/events/night'),
      type: 'news',
    });

    const admin = await memberWithRole(app, 'admin');
    const list = await getJson<NewsSource[]>(app, '/api/admin/news-sources', admin.cookie);
    const byPath = (p: string) => list.find((s) => s.url.endsWith(p));
    expect(byPath('/rss.xml')).toMatchObject({ lastStatus: 'ok', lastError: null, itemCount: 2, errorCount: 0 });
    // Unclosed elements are recovered, and the sources page says so.
    expect(byPath('/broken.xml')).toMatchObject({ lastStatus: 'ok', lastError: null, errorCount: 0, httpStatus: 200 });
    expect(byPath('/broken.xml')?.report).toMatchObject({ encoding: 'utf-8', found: 1, kept: 1, warnings: ['recovered: an element was not closed'] });
    expect(byPath('/page.html')).toMatchObject({ lastStatus: 'failed', errorCount: 1, httpStatus: 200 });
    expect(byPath('/page.html')?.lastError).toContain('HTML page');
    expect(byPath('/loop')?.lastError).toBe('redirect loop');
    expect(byPath('/huge.xml')?.lastError).toMatch(/reply larger than/);
    expect(byPath('/private/page')?.lastError).toBe('robots.txt disallows this page');
    for (const s of list) expect(s.lastFetchedAt).not.toBeNull();
  });

  it('asks again with the ETag (304: nothing changes) and adds only new items on a re-fetch (dedupe by guid/link)', async () => {
    const countRss = async () => (await app.database.db.select().from(newsItems).where(eq(newsItems.origin, 'rss'))).length;
    const before = await countRss();
    const poller = createNewsPoller({ database: app.database, config: app.config });
    const [rssSource] = await app.database.db
      .select()
      .from(newsSources)
      .where(eq(newsSources.url, server.url('/rss.xml')));
    if (!rssSource) throw new Error('no source');
    expect(await poller.fetchSource(rssSource)).toEqual({ status: 'not_modified', added: 0 });
    expect(etagHits).toBe(1);
    expect(await countRss()).toBe(before);

    // The feed gains one item and edits another's title: one new row, the edit applied in place.
    rssItems = [
      { title: 'Fresh: Moodymann announces tour', link: 'https://scene.example/moody', guid: 'moody-1' },
      { ...rssItems[0]!, title: 'Kerri Chandler returns to Dublin (updated)' },
      rssItems[1]!,
    ];
    const [again] = await app.database.db
      .select()
      .from(newsSources)
      .where(eq(newsSources.url, server.url('/rss.xml')));
    expect(await poller.fetchSource(again!)).toEqual({ status: 'ok', added: 1 });
    expect(await countRss()).toBe(before + 1);
    const titles = (await app.database.db.select().from(newsItems)).map((i) => i.title);
    expect(titles).toContain('Kerri Chandler returns to Dublin (updated)');
    expect(titles).not.toContain('Kerri Chandler returns to Dublin');
  });

  it('serves the lists from memory until the news changes, then the new list (ETag revalidation)', async () => {
    const first = await app.inject({ method: 'GET', url: '/api/rss/latest' });
    const etag = first.headers.etag as string;
    expect(first.headers['cache-control']).toBe('public, no-cache');
    expect((await app.inject({ method: 'GET', url: '/api/rss/latest', headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    // A row written behind the cache's back is not seen until a change is announced (NOTIFY).
    await app.database.db
      .insert(newsItems)
      .values({ id: 'manual-1', title: 'Written directly', link: 'https://x.example/', source: 'Test', pubDate: new Date(), type: 'news' });
    expect((await getJson<NewsItem[]>(app, '/api/rss/latest')).some((i) => i.id === 'manual-1')).toBe(false);
    await app.database.notify('news_changed', 'changed');
    await new Promise((r) => setTimeout(r, 50));
    expect((await getJson<NewsItem[]>(app, '/api/rss/latest')).some((i) => i.id === 'manual-1')).toBe(true);
    expect((await app.inject({ method: 'GET', url: '/api/rss/latest', headers: { 'if-none-match': etag } })).statusCode).toBe(200);
  });

  it('lists at most 25 items per tab', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({
      id: `bulk-${i}`,
      title: `Bulk ${i}`,
      link: 'https://x.example/',
      source: 'Bulk',
      pubDate: new Date(Date.now() - i * 1000),
      type: 'rss' as const,
    }));
    await app.database.db.insert(newsItems).values(rows);
    await app.modules.news.changed();
    expect(await getJson<NewsItem[]>(app, '/api/rss/latest')).toHaveLength(25);
    expect(await getJson<NewsItem[]>(app, '/api/articles/prioritized')).toHaveLength(25);
    await app.database.db.delete(newsItems).where(eq(newsItems.source, 'Bulk'));
    await app.modules.news.changed();
  });

  it('gives up on a slow feed within its timeout and marks it failed; the others are unaffected', async () => {
    const slow = await app.database.db
      .insert(newsSources)
      .values({ kind: 'rss', name: 'Slow', url: server.url('/slow.xml'), itemType: 'rss' })
      .returning();
    const poller = createNewsPoller({ database: app.database, config: app.config, fetchOptions: { totalTimeoutMs: 500 } });
    const started = Date.now();
    const outcome = await poller.fetchSource(slow[0]!);
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toBe('no complete reply within 500 ms');
    expect((await app.database.db.select().from(newsSources).where(eq(newsSources.id, slow[0]!.id)))[0]).toMatchObject({
      lastStatus: 'failed',
      lastError: 'no complete reply within 500 ms',
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await app.inject({ method: 'GET', url: '/api/rss/latest' })).statusCode).toBe(200);
  }, 30_000);
});

describe('private addresses refused (NEWS_ALLOW_PRIVATE unset)', () => {
  let app: App;
  let admin: TestMember;
  let server: FeedServer;

  beforeAll(async () => {
    server = await startFeedServer();
    server.route('/feed.xml', (_req, res) => res.end(rss([{ title: 'Should never be read', link: 'https://x.example/' }])));
    app = await createTestApp();
    admin = await memberWithRole(app, 'admin');
  });

  it.each([
    ['loopback', () => server.url('/feed.xml'), /refused: 127\.0\.0\.1 is a private or reserved address/],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/', /refused: 169\.254\.169\.254/],
    ['localhost by name', () => server.url('/feed.xml').replace('127.0.0.1', 'localhost'), /refused: localhost resolves to a private/],
  ])('marks a %s source failed with the reason and never connects', async (_name, url, reason) => {
    const before = server.requests.length;
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/news-sources',
      headers: { cookie: admin.cookie },
      payload: { kind: 'rss', name: 'Inside', url: url() },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json<NewsSource>()).toMatchObject({ lastStatus: 'failed', itemCount: 0 });
    expect(res.json<NewsSource>().lastError).toMatch(reason);
    expect(server.requests.length).toBe(before);
  });

  it('shows the empty tabs and the seeded news without any source', async () => {
    expect(await getJson<NewsItem[]>(app, '/api/crawler/all')).toEqual([]);
    expect((await getJson<NewsItem[]>(app, '/api/articles/prioritized')).length).toBeGreaterThan(0);
    expect(NEWS_EMPTY.web).toBe('No crawled content available. Try refreshing.');
  });
});

describe('news sources admin', () => {
  let app: App;
  let admin: TestMember;
  let server: FeedServer;

  beforeAll(async () => {
    server = await startFeedServer();
    server.route('/a.xml', (_req, res) => res.end(rss([{ title: 'From A', link: 'https://a.example/1', guid: 'a1' }])));
    app = await createTestApp({ NEWS_ALLOW_PRIVATE: 'true' });
    admin = await memberWithRole(app, 'admin');
  });

  it('is for admins only', async () => {
    const vip = await memberWithRole(app, 'vip');
    for (const cookie of [undefined, vip.cookie]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/admin/news-sources',
        headers: cookie ? { cookie } : {},
        payload: { kind: 'rss', name: 'X', url: server.url('/a.xml') },
      });
      expect([401, 403]).toContain(res.statusCode);
    }
    expect(await sources(app)).toHaveLength(0);
  });

  it('adds (fetching at once), refuses a duplicate, pauses, edits, removes with its items', async () => {
    const add = await app.inject({
      method: 'POST',
      url: '/api/admin/news-sources',
      headers: { cookie: admin.cookie },
      payload: { kind: 'rss', name: 'Feed A', url: server.url('/a.xml'), priority: 7 },
    });
    expect(add.statusCode).toBe(201);
    const src = add.json<NewsSource>();
    expect(src).toMatchObject({ name: 'Feed A', priority: 7, lastStatus: 'ok', itemCount: 1, paused: false, itemType: 'rss' });
    expect((await getJson<NewsItem[]>(app, '/api/rss/latest')).find((i) => i.title === 'From A')?.source).toBe('Feed A');

    const dup = await app.inject({
      method: 'POST',
      url: '/api/admin/news-sources',
      headers: { cookie: admin.cookie },
      payload: { kind: 'rss', name: 'Again', url: server.url('/a.xml') },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json<{ message: string }>().message).toBe(NEWS_MESSAGES.duplicateSource);

    const bad = await app.inject({
      method: 'POST',
      url: '/api/admin/news-sources',
      headers: { cookie: admin.cookie },
      payload: { kind: 'rss', name: 'X', url: 'javascript:alert(1)' },
    });
    expect(bad.statusCode).toBe(400);

    const patch = await app.inject({
      method: 'PATCH',
      url: `/api/admin/news-sources/${src.id}`,
      headers: { cookie: admin.cookie },
      payload: { paused: true, name: 'Feed A (label)', itemType: 'release' },
    });
    expect(patch.statusCode).toBe(200);
    expect(patch.json<NewsSource>()).toMatchObject({ paused: true, name: 'Feed A (label)', itemType: 'release' });
    expect((await getJson<NewsItem[]>(app, '/api/rss/latest')).find((i) => i.title === 'From A')).toMatchObject({ source: 'Feed A (label)', type: 'release' });
    // Paused: a poll leaves it alone.
    const before = server.requests.length;
    await app.modules.news.poller.poll('refresh');
    expect(server.requests.length).toBe(before);

    const del = await app.inject({ method: 'DELETE', url: `/api/admin/news-sources/${src.id}`, headers: { cookie: admin.cookie } });
    expect(del.statusCode).toBe(204);
    expect(await getJson<NewsSource[]>(app, '/api/admin/news-sources', admin.cookie)).toEqual([]);
    expect((await getJson<NewsItem[]>(app, '/api/rss/latest')).find((i) => i.title === 'From A')).toBeUndefined();
    expect((await app.inject({ method: 'DELETE', url: `/api/admin/news-sources/${src.id}`, headers: { cookie: admin.cookie } })).statusCode).toBe(404);

    // Added again later: it comes back fresh.
    const again = await app.inject({
      method: 'POST',
      url: '/api/admin/news-sources',
      headers: { cookie: admin.cookie },
      payload: { kind: 'rss', name: 'Feed A', url: server.url('/a.xml') },
    });
    expect(again.statusCode).toBe(201);
    expect(again.json<NewsSource>()).toMatchObject({ paused: false, itemCount: 1 });
  });

  it('refreshes from the news panel: rate-limited per client, and a source fetched within the minute is not fetched again', async () => {
    const c = client(app);
    const before = server.requests.length;
    const first = await c.post('/api/news/refresh', {});
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ queued: 0 });
    expect(server.requests.length).toBe(before);
    let last = first;
    for (let i = 0; i < 6; i++) last = await c.post('/api/news/refresh', {});
    expect(last.statusCode).toBe(429);
  });
});

describe('ranking', () => {
  const now = Date.UTC(2026, 10, 23, 12);
  const item = (id: string, hoursAgo: number, priority: number) => ({ id, pubDate: new Date(now - hoursAgo * HOUR_MS), priority });

  it('weighs recency (halving each day), source priority and recent comments, as documented', () => {
    expect(rankScore(item('a', 0, 0), 0, now)).toBeCloseTo(10);
    expect(rankScore(item('a', 24, 0), 0, now)).toBeCloseTo(5);
    expect(rankScore(item('a', 48, 3), 0, now)).toBeCloseTo(5.5);
    expect(rankScore(item('a', 0, 0), Math.E - 1, now)).toBeCloseTo(14);
    // A future date counts as now, never more.
    expect(rankScore({ id: 'f', pubDate: new Date(now + DAY_MS), priority: 0 }, 0, now)).toBeCloseTo(10);
  });

  it('orders: a fresh item beats an old one, a high-priority source can beat fresh news, comments lift an item', () => {
    const items = [item('old', 72, 0), item('fresh', 1, 0), item('priority', 30, 8), item('talked-about', 20, 0)];
    const ranked = rankItems(items, new Map([['talked-about', 6]]), now).map((i) => i.id);
    // talked-about: 5.6 + 4·ln 7 = 13.4; priority: 8 + 4.2 = 12.2; fresh: 9.7; old: 1.25
    expect(ranked).toEqual(['talked-about', 'priority', 'fresh', 'old']);
  });

  it('GET /api/articles/prioritized lifts an item members comment on (comments posted through the comments API)', async () => {
    const app = await createTestApp();
    const base = await getJson<NewsItem[]>(app, '/api/articles/prioritized');
    expect(base[0]?.id).toBe('news-residents-winter');
    const last = base.at(-1)!;
    // Comments by different members (the spam rule holds a burst by one), each invalidating the cached ranking.
    for (let i = 0; i < 8; i++) {
      const m = await memberWithRole(app, 'dhr1');
      const res = await app.inject({
        method: 'POST',
        url: '/api/comments',
        headers: { cookie: m.cookie },
        payload: { articleId: last.id, articleTitle: last.title, articleSource: last.source, comment: `Great news ${i}` },
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
    }
    // 12 days old, priority 4: 4 + 4·ln 9 = 12.8 now, past every seeded item but the fresh top one (10 + 5 = 15).
    await expect.poll(async () => (await getJson<NewsItem[]>(app, '/api/articles/prioritized')).findIndex((i) => i.id === last.id)).toBe(1);
  });
});

describe('forum threads', () => {
  let app: App;

  beforeAll(async () => {
    app = await createTestApp();
  });

  const post = (cookie: string | undefined, payload: unknown) =>
    app.inject({ method: 'POST', url: '/api/forum/posts', headers: cookie ? { cookie } : {}, payload: payload as object });

  it('lets DHR1, DHR2, VIP members and admins start threads; visitors and free members may not', async () => {
    expect((await post(undefined, { title: 'Hello', body: 'x', category: 'discussion' })).statusCode).toBe(401);
    const free = await memberWithRole(app, 'free');
    const refused = await post(free.cookie, { title: 'Hello there', body: 'x', category: 'discussion' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toBe(COMMENT_MESSAGES.subscriptionRequired);
    const expired = await memberWithRole(app, 'expired-vip');
    expect((await post(expired.cookie, { title: 'Hello there', body: 'x', category: 'discussion' })).statusCode).toBe(403);
    expect(await app.database.db.select().from(forumPosts)).toHaveLength(0);

    for (const role of ['dhr1', 'dhr2', 'vip', 'admin'] as const) {
      const m = await memberWithRole(app, role);
      const res = await post(m.cookie, {
        title: `  ${role} thread about Larry Heard  `,
        body: ` Fingers Inc. forever (${role}) `,
        category: role === 'dhr2' ? 'events' : 'discussion',
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json<ForumPost>()).toMatchObject({
        title: `${role} thread about Larry Heard`,
        body: `Fingers Inc. forever (${role})`,
        authorName: m.user.username,
        authorTier: role === 'admin' ? 'admin' : role,
        status: 'approved',
      });
    }
  });

  it('applies the comments module’s bans and spam rule: a banned member is refused, a thread with a link waits for a moderator', async () => {
    const banned = await memberWithRole(app, 'vip');
    await app.database.db.insert(commentBans).values({ userId: banned.user.id, reason: 'Spamming links' });
    const refused = await post(banned.cookie, { title: 'Let me in', body: 'Please', category: 'discussion' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toContain(COMMENT_MESSAGES.banned);

    const linker = await memberWithRole(app, 'dhr1');
    const held = await post(linker.cookie, { title: 'Check out my mix', body: 'https://mixes.example.com/mine', category: 'discussion' });
    expect(held.statusCode).toBe(201);
    expect(held.json<ForumPost>().status).toBe('pending');
    // Listed for its author only.
    expect((await getJson<ForumPost[]>(app, '/api/forum/posts')).some((p) => p.title === 'Check out my mix')).toBe(false);
    expect((await getJson<ForumPost[]>(app, '/api/forum/posts', linker.cookie))[0]).toMatchObject({ title: 'Check out my mix', status: 'pending' });
    await app.database.db.delete(forumPosts).where(eq(forumPosts.userId, linker.user.id));
  });

  it('lets an admin decide a held thread: listed for admins, approved for everyone, removed; members may not; all logged', async () => {
    const linker = await memberWithRole(app, 'vip');
    const held = (await post(linker.cookie, { title: 'My label night', body: 'Tickets at https://tickets.example.com', category: 'events' })).json<ForumPost>();
    expect(held.status).toBe('pending');
    const admin = await memberWithRole(app, 'admin');
    const other = await memberWithRole(app, 'dhr2');
    expect((await getJson<ForumPost[]>(app, '/api/forum/posts', other.cookie)).some((p) => p.id === held.id)).toBe(false);
    expect((await getJson<ForumPost[]>(app, '/api/forum/posts', admin.cookie)).find((p) => p.id === held.id)?.status).toBe('pending');

    const approve = (cookie: string | undefined, id: string) =>
      app.inject({ method: 'PATCH', url: `/api/admin/forum/posts/${id}/approve`, headers: cookie ? { cookie } : {} });
    const remove = (cookie: string | undefined, id: string) =>
      app.inject({ method: 'DELETE', url: `/api/admin/forum/posts/${id}`, headers: cookie ? { cookie } : {} });
    expect((await approve(undefined, held.id)).statusCode).toBe(401);
    expect((await approve(linker.cookie, held.id)).statusCode).toBe(403);
    expect((await remove(other.cookie, held.id)).statusCode).toBe(403);
    expect((await approve(admin.cookie, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await approve(admin.cookie, 'not-a-thread')).statusCode).toBe(400);
    expect((await getJson<ForumPost[]>(app, '/api/forum/posts')).some((p) => p.id === held.id)).toBe(false);

    const approved = await approve(admin.cookie, held.id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<ForumPost>().status).toBe('approved');
    expect((await getJson<ForumPost[]>(app, '/api/forum/posts')).find((p) => p.id === held.id)?.status).toBe('approved');

    expect((await remove(admin.cookie, held.id)).statusCode).toBe(204);
    expect((await remove(admin.cookie, held.id)).statusCode).toBe(404);
    expect((await getJson<ForumPost[]>(app, '/api/forum/posts')).some((p) => p.id === held.id)).toBe(false);
    const log = await app.database.db.select().from(moderationLog).where(eq(moderationLog.targetUserId, linker.user.id));
    expect(log.map((e) => [e.action, e.moderatorId, e.detail]).sort()).toEqual([
      ['approve', admin.user.id, 'Thread: My label night'],
      ['reject', admin.user.id, 'Thread removed: My label night'],
    ]);
  });

  it('refuses bad input with a 400 and stores nothing', async () => {
    const dhr1 = await memberWithRole(app, 'dhr1');
    const count = async () => (await app.database.db.select().from(forumPosts)).length;
    const before = await count();
    for (const payload of [
      {},
      { title: 'ok title', body: 'x', category: 'news' },
      { title: 'x', body: 'body', category: 'discussion' },
      { title: 'a'.repeat(121), body: 'b', category: 'discussion' },
      { title: 'fine title', body: '   ', category: 'discussion' },
    ]) {
      const res = await post(dhr1.cookie, payload);
      expect(res.statusCode).toBe(400);
    }
    expect(await count()).toBe(before);
  });

  it('lists threads newest first, by category and search; the news filter shows no threads', async () => {
    const all = await getJson<ForumPost[]>(app, '/api/forum/posts');
    expect(all).toHaveLength(4);
    expect(all[0]?.title).toBe('admin thread about Larry Heard');
    expect((await getJson<ForumPost[]>(app, '/api/forum/posts?category=events')).map((p) => p.authorTier)).toEqual(['dhr2']);
    expect(await getJson<ForumPost[]>(app, '/api/forum/posts?category=news')).toEqual([]);
    expect((await getJson<ForumPost[]>(app, '/api/forum/posts?search=(vip)')).map((p) => p.authorTier)).toEqual(['vip']);
    expect(await getJson<ForumPost[]>(app, '/api/forum/posts?search=100%25')).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/api/forum/posts?category=bogus' })).statusCode).toBe(400);
  });

  it('shows a new thread to visitors at once (the cached list is dropped)', async () => {
    await getJson<ForumPost[]>(app, '/api/forum/posts?category=releases');
    const vip = await memberWithRole(app, 'vip');
    expect((await post(vip.cookie, { title: 'Release of the week', body: 'Which one?', category: 'releases' })).statusCode).toBe(201);
    expect((await getJson<ForumPost[]>(app, '/api/forum/posts?category=releases')).map((p) => p.title)).toEqual(['Release of the week']);
  });
});
