import type dns from 'node:dns';
import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FetchError, isPrivateAddress, safeFetch } from '../../src/server/lib/outbound-http';
import { FeedFormatError, pageEntry, readFeed } from '../../src/server/modules/news/feed-items';
import { htmlToText } from '../../src/server/modules/news/plain-text';
import { atom, rss, startFeedServer } from '../support/feed-server';

/** The outbound fetch helper and the parsers, against real servers on loopback. */

const allow = { allowPrivate: true } as const;

async function fetchError(p: Promise<unknown>): Promise<FetchError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FetchError);
  return err as FetchError;
}

describe('address filter', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['::', true],
    ['fd00:ec2::254', true],
    ['fe80::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:a9fe:a9fe', true],
    ['64:ff9b::a9fe:a9fe', true],
    ['8.8.8.8', false],
    ['151.101.1.69', false],
    ['2606:4700:4700::1111', false],
    // IPv4-mapped and -translated addresses are refused whole (docs/security.md).
    ['::ffff:8.8.8.8', true],
    ['::ffff:0:10.0.0.1', true],
  ])('%s private: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});

describe('safeFetch', () => {
  it('refuses loopback and the metadata address when private addresses are not allowed, before connecting', async () => {
    const server = await startFeedServer();
    server.route('/feed.xml', (_req, res) => res.end(rss([])));
    const before = server.requests.length;
    const loop = await fetchError(safeFetch(server.url('/feed.xml')));
    expect(loop.code).toBe('blocked');
    expect(loop.message).toContain('127.0.0.1');
    const meta = await fetchError(safeFetch('http://169.254.169.254/latest/meta-data/', { totalTimeoutMs: 2000 }));
    expect(meta.code).toBe('blocked');
    const v6 = await fetchError(safeFetch('http://[::ffff:127.0.0.1]:9/x'));
    expect(v6.code).toBe('blocked');
    expect(server.requests.length).toBe(before);
  });

  it('refuses a name whose DNS answer is private and connects to the checked address, not a second answer (rebinding)', async () => {
    const server = await startFeedServer();
    server.route('/feed.xml', (_req, res) => res.end('ok'));
    const port = new URL(server.origin).port;
    // A rebinding resolver: the first answer is the one checked; any later answer would be private.
    let calls = 0;
    const rebinding = (async () => {
      calls += 1;
      return [{ address: '127.0.0.1', family: 4 }];
    }) as unknown as typeof dns.promises.lookup;
    const refused = await fetchError(safeFetch(`http://feeds.rebind.test:${port}/feed.xml`, { lookup: rebinding }));
    expect(refused.code).toBe('blocked');
    expect(refused.message).toContain('resolves to a private');
    // Allowed (tests on loopback): the name is resolved once, and the socket goes to that very address.
    calls = 0;
    const ok = await safeFetch(`http://feeds.rebind.test:${port}/feed.xml`, { ...allow, lookup: rebinding });
    expect(ok.body.toString()).toBe('ok');
    expect(calls).toBe(1);
    expect(server.requests.at(-1)?.headers.host).toBe(`feeds.rebind.test:${port}`);
  });

  it('sends the validators and reports a 304 as not modified', async () => {
    const server = await startFeedServer();
    server.route('/feed.xml', (req, res) => {
      if (req.headers['if-none-match'] === '"v1"') return res.writeHead(304).end();
      res.writeHead(200, { etag: '"v1"', 'last-modified': 'Mon, 23 Nov 2026 10:00:00 GMT' }).end(rss([]));
    });
    const first = await safeFetch(server.url('/feed.xml'), allow);
    expect(first.notModified).toBe(false);
    expect(first.etag).toBe('"v1"');
    const second = await safeFetch(server.url('/feed.xml'), { ...allow, etag: first.etag, lastModified: first.lastModified });
    expect(second.notModified).toBe(true);
    expect(server.requests.at(-1)?.headers['if-modified-since']).toBe('Mon, 23 Nov 2026 10:00:00 GMT');
  });

  it('aborts a 50 MB reply mid-stream at the byte cap, with or without a declared length', async () => {
    const server = await startFeedServer();
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const streamBig = (declare: boolean) => (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, declare ? { 'content-length': String(50 * 1024 * 1024) } : {});
      let sent = 0;
      const pump = () => {
        while (sent < 50 * 1024 * 1024) {
          sent += chunk.length;
          server.bytesSent.set(declare ? 'declared' : 'chunked', sent);
          if (!res.write(chunk)) return res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => undefined);
      pump();
    };
    server.route('/big-chunked', streamBig(false));
    server.route('/big-declared', streamBig(true));
    const chunked = await fetchError(safeFetch(server.url('/big-chunked'), { ...allow, maxBytes: 1024 * 1024 }));
    expect(chunked.code).toBe('too_large');
    const declared = await fetchError(safeFetch(server.url('/big-declared'), { ...allow, maxBytes: 1024 * 1024 }));
    expect(declared.code).toBe('too_large');
    // The download stopped near the cap: far from the 50 MB offered (socket buffers allow some slack).
    await new Promise((r) => setTimeout(r, 200));
    expect(server.bytesSent.get('chunked') ?? 0).toBeLessThan(20 * 1024 * 1024);
  });

  it('caps the decompressed size (a gzip bomb stops at the cap)', async () => {
    const server = await startFeedServer();
    const bomb = zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024, 0));
    server.route('/bomb', (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(bomb));
    expect(bomb.length).toBeLessThan(100 * 1024);
    const err = await fetchError(safeFetch(server.url('/bomb'), { ...allow, maxBytes: 1024 * 1024 }));
    expect(err.code).toBe('too_large');
    const gz = zlib.gzipSync(Buffer.from(rss([{ title: 'Zipped', link: 'https://x.example/1' }])));
    server.route('/gz', (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gz));
    const ok = await safeFetch(server.url('/gz'), allow);
    expect(ok.body.toString()).toContain('Zipped');
  });

  it('follows a few redirects, refuses a loop and too many hops', async () => {
    const server = await startFeedServer();
    server.route('/a', (_req, res) => res.writeHead(301, { location: '/b' }).end());
    server.route('/b', (_req, res) => res.writeHead(302, { location: server.url('/feed') }).end());
    server.route('/feed', (_req, res) => res.end('feed'));
    server.route('/loop1', (_req, res) => res.writeHead(302, { location: '/loop2' }).end());
    server.route('/loop2', (_req, res) => res.writeHead(302, { location: '/loop1' }).end());
    for (let i = 0; i < 10; i++) server.route(`/hop${i}`, (_req, res) => res.writeHead(307, { location: `/hop${i + 1}` }).end());
    server.route('/to-file', (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end());
    const ok = await safeFetch(server.url('/a'), allow);
    expect(ok.body.toString()).toBe('feed');
    expect(ok.url).toBe(server.url('/feed'));
    expect((await fetchError(safeFetch(server.url('/loop1'), allow))).message).toBe('redirect loop');
    expect((await fetchError(safeFetch(server.url('/hop0'), { ...allow, maxRedirects: 3 }))).code).toBe('redirects');
    expect((await fetchError(safeFetch(server.url('/to-file'), allow))).message).toContain('redirect refused');
  });

  it('gives up on a server that never answers, and on one that drips its reply, within the time limit', async () => {
    const server = await startFeedServer();
    server.route('/silent', () => undefined);
    server.route('/drip', (_req, res) => {
      res.writeHead(200);
      const t = setInterval(() => res.write('<'), 100);
      res.on('close', () => clearInterval(t));
    });
    const started = Date.now();
    const silent = await fetchError(safeFetch(server.url('/silent'), { ...allow, totalTimeoutMs: 600 }));
    expect(silent.code).toBe('timeout');
    const drip = await fetchError(safeFetch(server.url('/drip'), { ...allow, totalTimeoutMs: 600 }));
    expect(drip.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reports an HTTP error status and an unreachable server', async () => {
    const server = await startFeedServer();
    server.route('/gone', (_req, res) => res.writeHead(410, 'Gone').end());
    expect((await fetchError(safeFetch(server.url('/gone'), allow))).message).toBe('HTTP 410 Gone');
    // Port 1 on loopback: nothing listens.
    expect((await fetchError(safeFetch('http://127.0.0.1:1/feed', allow))).code).toBe('network');
    expect((await fetchError(safeFetch('ftp://example.com/feed'))).code).toBe('invalid_url');
  });
});

describe('feed parsing', () => {
  it('reads RSS 2.0: guid, stripped text, enclosure and media images, dates', async () => {
    const body = rss([
      {
        title: 'Kerri Chandler &amp; friends',
        link: 'https://scene.example/a',
        guid: 'a-1',
        description: '<p>Live <b>tonight</b> &amp; tomorrow<script>alert(1)</script></p>',
        pubDate: 'Mon, 23 Nov 2026 10:00:00 GMT',
        extra: '<enclosure url="https://scene.example/a.jpg" length="100" type="image/jpeg"/>',
      },
      { title: 'With thumbnail', link: 'https://scene.example/b', extra: '<media:thumbnail url="https://scene.example/b.jpg"/>' },
      { title: 'Relative', link: '/c', description: '<img src="/c.png"> text' },
      { title: 'Script link', link: 'javascript:alert(1)' },
    ]);
    const { entries } = await readFeed(body, 'https://scene.example/feed.xml');
    expect(entries).toHaveLength(4);
    expect(entries[0]).toMatchObject({
      key: 'a-1',
      title: 'Kerri Chandler & friends',
      description: 'Live tonight & tomorrow',
      imageUrl: 'https://scene.example/a.jpg',
    });
    expect(entries[0]?.pubDate?.toISOString()).toBe('2026-11-23T10:00:00.000Z');
    expect(entries[1]?.imageUrl).toBe('https://scene.example/b.jpg');
    expect(entries[1]?.key).toBe('https://scene.example/b');
    expect(entries[2]).toMatchObject({ link: 'https://scene.example/c', imageUrl: 'https://scene.example/c.png', description: 'text' });
    // A javascript: link is never kept: the item links to the feed's site instead.
    expect(entries[3]).toMatchObject({ title: 'Script link', link: 'https://scene.example/' });
  });

  it('reads Atom: id, alternate link, html title and summary, enclosure image', async () => {
    const body = atom([
      {
        title: 'New EP &lt;i&gt;Deep&lt;/i&gt;',
        id: 'urn:ep:1',
        link: 'https://label.example/ep1',
        summary: '&lt;p&gt;Four tracks&lt;/p&gt;',
        updated: '2026-11-20T09:00:00Z',
        extra: '<link rel="enclosure" type="image/png" href="https://label.example/ep1.png"/>',
      },
    ]);
    const [entry] = (await readFeed(body, 'https://label.example/atom.xml')).entries;
    expect(entry).toMatchObject({
      key: 'urn:ep:1',
      title: 'New EP Deep',
      description: 'Four tracks',
      link: 'https://label.example/ep1',
      imageUrl: 'https://label.example/ep1.png',
    });
  });

  it('says why a body is not a feed: an HTML page, JSON that is no JSON Feed, nonsense; broken XML is recovered and says so', async () => {
    const broken = await readFeed('<rss><channel><item><title>x</item>', 'https://x.example/');
    expect(broken.entries.map((e) => e.title)).toEqual(['x']);
    expect(broken.warnings).toContain('recovered: an element was not closed');
    await expect(readFeed('<!DOCTYPE html><html><body>hi</body></html>', 'https://x.example/')).rejects.toThrow(/HTML page/);
    await expect(readFeed('{"not":"a feed"}', 'https://x.example/')).rejects.toThrow(FeedFormatError);
    await expect(readFeed('{"broken', 'https://x.example/')).rejects.toThrow(/JSON does not parse/);
    await expect(readFeed('<opml><body/></opml>', 'https://x.example/')).rejects.toThrow('not a feed: the document is <opml>, not RSS, Atom or RDF');
  });

  it('reads a page’s OpenGraph tags into one item and keeps its link on its own site', async () => {
    const html = `<!doctype html><html><head><title>Fallback</title>
      <meta property="og:title" content="Club night: Deep &amp; Soulful">
      <meta property="og:description" content="Doors at 22:00">
      <meta property="og:image" content="/img/night.jpg">
      <meta property="og:url" content="https://evil.example/elsewhere">
      </head><body></body></html>`;
    const entry = await pageEntry(html, 'https://club.example/events/night');
    expect(entry).toMatchObject({
      key: 'https://club.example/events/night',
      title: 'Club night: Deep & Soulful',
      description: 'Doors at 22:00',
      imageUrl: 'https://club.example/img/night.jpg',
      link: 'https://club.example/events/night',
    });
  });

  it('strips markup, decodes entities and cuts long text', () => {
    expect(htmlToText('<div>a&nbsp;b &#8217; &#x2014; <style>x{}</style>c</div>', 100)).toBe('a b ’ — c');
    // Escaped twice: the entities are decoded once, and tags of real elements that come out are still removed.
    expect(htmlToText('&lt;b&gt;escaped twice&lt;/b&gt; &amp;amp;', 100)).toBe('escaped twice &amp;');
    expect(htmlToText('x'.repeat(50), 10)).toHaveLength(10);
  });
});
