import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DhrApp } from '../../src/server/app';
import { DomUtils, parseDocument } from 'htmlparser2';
import Parser from 'rss-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStringPromise } from 'xml2js';
import { forumPosts, memberProfiles, newsItems, trackIdentifications } from '../../src/server/db/schema';
import { createMember, createTestApp } from '../support/app';

const ORIGIN = 'http://localhost:3000';

/** A web root with the real index.html (its page-head markers) and the real icons. */
function webRoot(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dhr-seo-web-'));
  fs.copyFileSync(path.resolve('src/web/index.html'), path.join(dir, 'index.html'));
  fs.cpSync(path.resolve('src/web/public/icons'), path.join(dir, 'icons'), { recursive: true });
  return dir;
}

interface Head {
  titles: string[];
  meta: (key: string) => string[];
  links: (rel: string) => { href: string; type: string; title: string }[];
  jsonLd: unknown[];
}

/** The head as a browser (or a crawler) reads it: parsed, never matched with a pattern. */
function headOf(html: string): Head {
  const doc = parseDocument(html);
  const all = (name: string) => DomUtils.getElementsByTagName(name, doc);
  return {
    titles: all('title').map((t) => DomUtils.textContent(t)),
    meta: (key) =>
      all('meta')
        .filter((m) => m.attribs.property === key || m.attribs.name === key)
        .map((m) => m.attribs.content ?? ''),
    links: (rel) =>
      all('link')
        .filter((l) => l.attribs.rel === rel)
        .map((l) => ({ href: l.attribs.href ?? '', type: l.attribs.type ?? '', title: l.attribs.title ?? '' })),
    jsonLd: all('script')
      .filter((s) => s.attribs.type === 'application/ld+json')
      .map((s) => JSON.parse(DomUtils.textContent(s)) as unknown),
  };
}

describe('one page per URL for crawlers and link previews', () => {
  let app: DhrApp;
  let threadId: string;
  let hostileThreadId: string;
  let publicMember: { id: string; username: string };
  let privateMember: { id: string; username: string };
  const HOSTILE = '<'.repeat(300 * 1024);

  beforeAll(async () => {
    app = await createTestApp({}, {}, { webRoot: webRoot() });
    await app.ready();
    const { db } = app.database;
    const author = await createMember(app, { username: 'thread_author' });
    publicMember = { id: author.user.id, username: author.user.username };
    const hidden = await createMember(app, { username: 'secret_listener' });
    privateMember = { id: hidden.user.id, username: hidden.user.username };
    await db.insert(memberProfiles).values({ userId: hidden.user.id, profileVisibility: 'private' });
    const [thread] = await db
      .insert(forumPosts)
      .values({ userId: author.user.id, category: 'discussion', title: 'Best Kerri Chandler B-sides', body: 'Which ones do you play?' })
      .returning();
    threadId = thread!.id;
    const [hostile] = await db
      .insert(forumPosts)
      .values({ userId: author.user.id, category: 'discussion', title: `${HOSTILE}"/><script>alert(1)</script>`, body: HOSTILE })
      .returning();
    hostileThreadId = hostile!.id;
    await db.insert(newsItems).values({
      id: 'seo-test-news',
      title: 'Station news: a new residency & <more>',
      description: 'Every Friday night.',
      link: 'https://news.example/residency',
      source: 'Deep House Radio',
      pubDate: new Date(),
      type: 'news',
    });
    await db.insert(trackIdentifications).values({ channel: 'dhr1', title: 'Rain', artist: 'Kerri Chandler', confidence: 100, service: 'icecast-metadata' });
    await app.modules.nowPlaying.publish({
      channel: 'dhr1',
      online: true,
      artist: 'Larry Heard',
      title: 'Can You Feel It',
      album: '',
      current_track: 'Larry Heard - Can You Feel It',
      listeners: 3,
      bitrate: 320,
      updatedAt: new Date().toISOString(),
    });
  });
  afterAll(async () => app?.close());

  const page = async (url: string) => {
    const res = await app.inject({ url });
    expect(res.statusCode, url).toBe(200);
    expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
    return headOf(res.body);
  };

  it('gives /, the channels, /vip, /shop, /forum, a thread and a profile each their own title and og:url', async () => {
    const urls = ['/', '/dhr1', '/dhr2', '/vip', '/shop', '/forum', '/news', `/forum/${threadId}`, `/profile/${publicMember.id}`];
    const heads = await Promise.all(urls.map(page));
    for (const [i, head] of heads.entries()) {
      const url = urls[i]!;
      expect(head.titles, url).toHaveLength(1);
      expect(head.meta('og:url'), url).toEqual([`${ORIGIN}${url}`]);
      expect(
        head.links('canonical').map((l) => l.href),
        url,
      ).toEqual([`${ORIGIN}${url}`]);
      expect(head.meta('og:title'), url).toEqual(head.titles);
      expect(head.meta('description'), url).toHaveLength(1);
      expect(head.meta('og:description'), url).toHaveLength(1);
      expect(head.meta('og:image'), url).toEqual([`${ORIGIN}/og-image.png`]);
    }
    expect(new Set(heads.map((h) => h.titles[0])).size).toBe(urls.length);
    const [home, dhr1, , , , , , thread, profile] = heads;
    expect(home!.titles[0]).toBe('Deep House Radio — Live Deep House, 24/7');
    // The channel's page names the channel and what it plays now.
    const channelName = app.modules.nowPlaying.channel('dhr1')!.name;
    expect(dhr1!.titles[0]).toContain(channelName);
    expect(dhr1!.titles[0]).toContain('Larry Heard – Can You Feel It');
    expect(dhr1!.links('alternate').map((l) => l.href)).toContain(`${ORIGIN}/feeds/dhr1-tracks.rss`);
    expect(thread!.titles[0]).toContain('Best Kerri Chandler B-sides');
    expect(profile!.titles[0]).toContain(publicMember.username);
    // Every page links the news feeds.
    expect(home!.links('alternate')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'application/rss+xml', href: `${ORIGIN}/feeds/news.rss` }),
        expect.objectContaining({ type: 'application/atom+xml', href: `${ORIGIN}/feeds/news.atom` }),
      ]),
    );
  });

  it("names a news article's page by its title", async () => {
    const head = await page('/news/seo-test-news');
    expect(head.titles[0]).toContain('Station news: a new residency & <more>');
  });

  it("never puts a private profile's name in its page", async () => {
    const res = await app.inject({ url: `/profile/${privateMember.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(privateMember.username);
    expect(headOf(res.body).titles[0]).toBe('Member profile | Deep House Radio');
  });

  it('caps and escapes a 300 KB title of `<`', async () => {
    const res = await app.inject({ url: `/forum/${hostileThreadId}` });
    expect(res.statusCode).toBe(200);
    expect(res.body.length).toBeLessThan(20_000);
    expect(res.body).not.toContain('<<');
    expect(res.body).not.toContain('<script>alert');
    const head = headOf(res.body);
    expect(head.titles).toHaveLength(1);
    expect(head.titles[0]!.length).toBeLessThanOrEqual(120);
    expect(head.titles[0]!.startsWith('<<<')).toBe(true);
    // The document still has its one root and the app's mount point after the head.
    expect(DomUtils.getElementsByTagName('div', parseDocument(res.body)).some((d) => d.attribs.id === 'root')).toBe(true);
  });

  it('describes one RadioStation with a BroadcastService per channel and a ListenAction to the free stream', async () => {
    const [ld] = (await page('/')).jsonLd as { '@graph': Record<string, unknown>[] }[];
    const graph = ld!['@graph'];
    const stations = graph.filter((n) => n['@type'] === 'RadioStation');
    expect(stations).toHaveLength(1);
    expect(stations[0]).not.toHaveProperty('genre');
    expect(stations[0]).toMatchObject({
      potentialAction: { '@type': 'ListenAction', target: { urlTemplate: app.modules.nowPlaying.channel('dhr1')!.freeStreamUrl } },
    });
    const services = graph.filter((n) => n['@type'] === 'BroadcastService');
    expect(services.map((s) => s.url)).toEqual(app.modules.nowPlaying.channelIds().map((id) => `${ORIGIN}/${id}`));
    for (const s of services) expect(s.genre).toBe('Deep House');
    expect(graph.every((n) => typeof n['@type'] === 'string')).toBe(true);
  });

  it('keeps the 404 page unlisted', async () => {
    const res = await app.inject({ url: '/no-such-page' });
    expect(res.statusCode).toBe(404);
    expect(headOf(res.body).meta('robots')).toEqual(['noindex']);
  });

  it('answers robots.txt, disallowing the admin and account pages', async () => {
    const res = await app.inject({ url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = res.body.split('\n');
    for (const p of ['/admin', '/account/', '/api/', '/auth']) expect(lines, p).toContain(`Disallow: ${p}`);
    expect(lines).not.toContain('Disallow: /forum');
    expect(lines).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  });

  it('answers a sitemap that is valid XML and lists pages, threads, articles and public profiles only', async () => {
    const res = await app.inject({ url: '/sitemap.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const xml = (await parseStringPromise(res.body, { strict: true })) as { urlset: { $: { xmlns: string }; url: { loc: string[] }[] } };
    expect(xml.urlset.$.xmlns).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const locs = xml.urlset.url.map((u) => u.loc[0]);
    for (const p of ['/', '/dhr1', '/dhr2', '/vip', '/shop', '/forum', `/forum/${threadId}`, '/news/seo-test-news', `/profile/${publicMember.id}`]) {
      expect(locs, p).toContain(`${ORIGIN}${p}`);
    }
    expect(locs).not.toContain(`${ORIGIN}/profile/${privateMember.id}`);
    expect(locs.some((l) => l?.includes('/admin'))).toBe(false);
  });

  it('answers /favicon.ico with an icon', async () => {
    const res = await app.inject({ url: '/favicon.ico' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/x-icon');
    // ICO header: reserved 0, type 1 (icon), one image; the image is the PNG.
    expect([...res.rawPayload.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
    expect(res.rawPayload.subarray(22, 26).toString('latin1')).toBe('\x89PNG');
  });

  it('serves RSS and Atom feeds of the news and of each channel that a real feed parser reads', async () => {
    const parser = new Parser();
    const read = async (url: string, type: string) => {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe(`${type}; charset=utf-8`);
      return parser.parseString(res.body);
    };
    for (const [url, type] of [
      ['/feeds/news.rss', 'application/rss+xml'],
      ['/feeds/news.atom', 'application/atom+xml'],
    ] as const) {
      const feed = await read(url, type);
      const item = feed.items.find((i) => i.title === 'Station news: a new residency & <more>');
      expect(item, url).toBeDefined();
      expect(item!.link).toBe(`${ORIGIN}/news/seo-test-news`);
    }
    for (const [url, type] of [
      ['/feeds/dhr1-tracks.rss', 'application/rss+xml'],
      ['/feeds/dhr1-tracks.atom', 'application/atom+xml'],
    ] as const) {
      const feed = await read(url, type);
      // What the stream said was on air; the recognisers' identifications are a paid tier's benefit.
      expect(
        feed.items.map((i) => i.title),
        url,
      ).toContain('Larry Heard – Can You Feel It');
      expect(JSON.stringify(feed.items), url).not.toContain('Kerri Chandler');
    }
    // A new title is in the feed at once (the cached feed is dropped on every change).
    await app.modules.nowPlaying.publish({
      channel: 'dhr1',
      online: true,
      artist: 'Moodymann',
      title: 'Shades of Jae',
      album: '',
      current_track: 'Moodymann - Shades of Jae',
      listeners: 3,
      bitrate: 320,
      updatedAt: new Date().toISOString(),
    });
    expect((await read('/feeds/dhr1-tracks.rss', 'application/rss+xml')).items[0]?.title).toBe('Moodymann – Shades of Jae');
    expect((await read('/feeds/dhr2-tracks.rss', 'application/rss+xml')).items).toEqual([]);
    expect((await app.inject({ url: '/feeds/nope-tracks.rss' })).statusCode).toBe(404);
  });
});

describe('listed and heard everywhere: genre, country, language, codec and bitrate', () => {
  let app: DhrApp;
  beforeAll(async () => {
    app = await createTestApp({ STATION_GENRE: 'Soulful House', STATION_COUNTRY: 'GB', STATION_LANGUAGE: 'en-GB' });
    await app.ready();
    await app.modules.nowPlaying.publish({
      channel: 'dhr1',
      online: true,
      artist: 'A',
      title: 'B',
      album: '',
      current_track: 'A - B',
      listeners: 1,
      bitrate: 320,
      updatedAt: new Date().toISOString(),
    });
  });
  afterAll(async () => app?.close());

  it('says them in the live metadata', async () => {
    const res = await app.inject({ url: '/api/live-metadata/dhr1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ artist: 'A', title: 'B', bitrate: 320, genre: 'Soulful House', country: 'GB', language: 'en-GB' });
    expect(res.json()).toHaveProperty('codec');
  });

  it('says them in the playlists', async () => {
    const m3u = (await app.inject({ url: '/api/nowplaying/dhr1/playlist.m3u' })).body;
    expect(m3u).toContain('#EXTGENRE:Soulful House');
    expect(m3u).toContain('tvg-country="GB" tvg-language="en-GB" group-title="Soulful House"');
    const pls = (await app.inject({ url: '/api/nowplaying/dhr1/playlist.pls' })).body;
    expect(pls).toMatch(/^Title1=.*\(Soulful House, 128 kbps[^)]*\)$/m);
  });

  it('puts the genre and language on the broadcast services of the structured data', async () => {
    const html = (await app.inject({ url: '/dhr2' })).body;
    const script = DomUtils.getElementsByTagName('script', parseDocument(html)).find((s) => s.attribs.type === 'application/ld+json');
    const graph = (JSON.parse(DomUtils.textContent(script!)) as { '@graph': Record<string, unknown>[] })['@graph'];
    expect(graph.find((n) => n['@type'] === 'RadioStation')).toMatchObject({ address: { addressCountry: 'GB' } });
    for (const s of graph.filter((n) => n['@type'] === 'BroadcastService')) expect(s).toMatchObject({ genre: 'Soulful House', inLanguage: 'en-GB' });
  });
});
