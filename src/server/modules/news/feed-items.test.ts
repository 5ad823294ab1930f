import { describe, expect, it } from 'vitest';
import { firstSentence, readFeed, whyNoItems } from './feed-items';
import { growthRatio } from '../../../../tests/support/linear-time';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('readFeed: formats and fallbacks', () => {
  it('reads RSS 0.91, RDF (RSS 1.0) and JSON Feed 1.0', async () => {
    const rss091 = await readFeed(
      '<rss version="0.91"><channel><link>https://s.example/</link><item><title>Old</title><link>https://s.example/old</link></item></channel></rss>',
      'https://s.example/f',
    );
    expect(rss091).toMatchObject({ format: 'RSS 0.91', entries: [{ title: 'Old', link: 'https://s.example/old' }] });
    const rdf = await readFeed(
      '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:d="http://purl.org/dc/elements/1.1/"><channel rdf:about="https://r.example/"><link>https://r.example/</link></channel><item rdf:about="https://r.example/1"><title>R1</title><link>https://r.example/1</link><d:date>2026-11-01T10:00:00Z</d:date></item></rdf:RDF>',
      'https://r.example/rdf',
    );
    expect(rdf.format).toBe('RDF');
    expect(rdf.entries[0]).toMatchObject({ key: 'https://r.example/1', title: 'R1', pubDate: new Date('2026-11-01T10:00:00Z') });
    const json = await readFeed(
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1',
        items: [{ id: 'j1', url: '/j1', content_html: '<p>Only <b>HTML</b>. More.</p>', image: 'img/j1.png' }],
      }),
      'https://j.example/feed.json',
    );
    expect(json.entries[0]).toMatchObject({
      title: 'Only HTML.',
      description: 'Only HTML. More.',
      link: 'https://j.example/j1',
      imageUrl: 'https://j.example/img/j1.png',
    });
  });

  it('falls back to dc:title, media:title, itunes:summary and content:encoded', async () => {
    const feed = `<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><link>https://p.example/</link>
      <item><dc:title>From dc</dc:title><link>https://p.example/1</link><itunes:summary>Podcast summary</itunes:summary><itunes:image href="https://p.example/1.jpg"/></item>
      <item><media:group><media:title>From media</media:title><media:content url="https://p.example/2.jpg" medium="image"/></media:group><link>https://p.example/2</link><content:encoded><![CDATA[<p>Encoded <img src="/inline.png"> body</p>]]></content:encoded></item>
    </channel></rss>`;
    const { entries } = await readFeed(feed, 'https://p.example/feed');
    expect(entries[0]).toMatchObject({ title: 'From dc', description: 'Podcast summary', imageUrl: 'https://p.example/1.jpg' });
    expect(entries[1]).toMatchObject({ title: 'From media', description: 'Encoded body', imageUrl: 'https://p.example/2.jpg' });
  });

  it('resolves relative links and images against xml:base, then the document address', async () => {
    const feed = `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://cdn.example/blog/"><link href="/"/>
      <entry xml:base="2026/"><id>a</id><title>A</title><link href="post-a.html"/><content type="html">&lt;img src="a.png"&gt; text</content></entry>
      <entry><id>b</id><title>B</title><link href="../about"/></entry></feed>`;
    const { entries } = await readFeed(feed, 'https://site.example/feeds/atom.xml');
    expect(entries[0]).toMatchObject({ link: 'https://cdn.example/blog/2026/post-a.html', imageUrl: 'https://cdn.example/blog/2026/a.png' });
    expect(entries[1]?.link).toBe('https://cdn.example/about');
    const plain = await readFeed('<rss><channel><item><title>R</title><link>r/1</link></item></channel></rss>', 'https://moved.example/news/feed.xml');
    expect(plain.entries[0]?.link).toBe('https://moved.example/news/r/1');
  });

  it('decodes base64 content (Atom 1.0 by media type, Atom 0.3 by mode) and reads escaped content as HTML', async () => {
    const feed = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>1</id><title>B64</title><link href="https://b.example/1"/><content type="text/html" mode="base64">${b64('<p>Hidden <img src="https://b.example/1.png"> words</p>')}</content></entry>
      <entry><id>2</id><title>Bin</title><link href="https://b.example/2"/><content type="application/octet-stream">${b64('\u0000\u0001binary')}</content></entry></feed>`;
    const { entries } = await readFeed(feed, 'https://b.example/');
    expect(entries[0]).toMatchObject({ description: 'Hidden words', imageUrl: 'https://b.example/1.png' });
    expect(entries[1]?.description).toBe('');
    const atom03 = await readFeed(
      `<feed version="0.3" xmlns="http://purl.org/atom/ns#"><entry><id>x</id><title mode="escaped" type="text/html">&lt;i&gt;Esc&lt;/i&gt;</title><summary type="text/plain" mode="base64">${b64('Plain words')}</summary><link rel="alternate" href="https://o.example/x"/><issued>2026-01-01T00:00:00Z</issued></entry></feed>`,
      'https://o.example/',
    );
    expect(atom03).toMatchObject({ format: 'Atom 0.3', entries: [{ title: 'Esc', description: 'Plain words', pubDate: new Date('2026-01-01T00:00:00Z') }] });
  });

  it('recovers undefined entities and bare ampersands, and says it did', async () => {
    const read = await readFeed(
      '<rss><channel><item><title>Caf&eacute; &amp; bar&nbsp;night</title><link>https://e.example/?a=1&b=2</link></item></channel></rss>',
      'https://e.example/',
    );
    expect(read.entries[0]).toMatchObject({ title: 'Café & bar night', link: 'https://e.example/?a=1&b=2' });
    expect(read.warnings).toEqual(['recovered: an undefined entity or a bare "&"']);
  });
});

describe('readFeed: keeping what a reader would keep', () => {
  it('titles an untitled item from its first sentence and links it by guid, the feed link, or the feed address', async () => {
    const feed = `<rss version="2.0"><channel><link>https://k.example/</link>
      <item><description>Tonight we play records. Bring friends.</description><guid>https://k.example/g1</guid></item>
      <item><description>${'word '.repeat(60)}</description><guid isPermaLink="false">opaque-2</guid></item>
      <item><title>Guid not a URL</title><guid>tag:k.example,2026:3</guid></item>
      <item></item><item><title></title><description>  </description></item>
    </channel></rss>`;
    const read = await readFeed(feed, 'https://k.example/rss');
    expect(read.entries.map((e) => [e.title, e.link])).toEqual([
      ['Tonight we play records.', 'https://k.example/g1'],
      [expect.stringMatching(/^(word ){20,}word…$/), 'https://k.example/'],
      ['Guid not a URL', 'https://k.example/'],
    ]);
    expect(read.entries[1]!.title.length).toBeLessThanOrEqual(120);
    expect(read.dropped).toEqual({ 'had neither text nor link': 2 });
    const noLink = await readFeed('<rss><channel><item><title>Alone</title></item></channel></rss>', 'https://self.example/feed');
    expect(noLink.entries[0]?.link).toBe('https://self.example/feed');
  });

  it('deduplicates by guid, then link, then title and date', async () => {
    const item = (t: string, extra: string) => `<item><title>${t}</title>${extra}</item>`;
    const feed = `<rss><channel><link>https://d.example/</link>${[
      item('One', '<guid>g</guid>'),
      item('Same guid', '<guid>g</guid>'),
      item('Two', '<link>https://d.example/2</link>'),
      item('Same link', '<link>https://d.example/2</link>'),
      item('Three', '<pubDate>Mon, 23 Nov 2026 10:00:00 GMT</pubDate>'),
      item('Three', '<pubDate>Mon, 23 Nov 2026 10:00:00 GMT</pubDate>'),
      item('Three', '<pubDate>Tue, 24 Nov 2026 10:00:00 GMT</pubDate>'),
    ].join('')}</channel></rss>`;
    const read = await readFeed(feed, 'https://d.example/f');
    expect(read.entries.map((e) => e.title)).toEqual(['One', 'Two', 'Three', 'Three']);
    expect(read.dropped).toEqual({ 'repeated an earlier entry': 3 });
  });

  it('says why a feed gave nothing', async () => {
    expect(whyNoItems(await readFeed('<rss version="2.0"><channel></channel></rss>', 'https://n.example/'))).toBe('the RSS 2.0 feed lists no entries');
    expect(whyNoItems(await readFeed('<rss><channel><item/><item></item></channel></rss>', 'https://n.example/'))).toBe('2 entries had neither text nor link');
  });

  it('cuts a first sentence at 120 characters', () => {
    expect(firstSentence('Short. Long.')).toBe('Short.');
    expect(firstSentence('v1.2 is out! Now.')).toBe('v1.2 is out!');
    expect(firstSentence('x'.repeat(300))).toHaveLength(120);
  });
});

describe('readFeed: linear time on hostile feeds', () => {
  const MB = 1024 * 1024;
  const inItem = (body: string) =>
    `<rss version="2.0"><channel><link>https://h.example/</link><item><title>t</title><link>https://h.example/1</link><description>${body}</description></item></channel></rss>`;
  const shapes: Record<string, (bytes: number) => string> = {
    'many < in CDATA': (n) => inItem(`<![CDATA[${'<'.repeat(n)}]]>`),
    'escaped < in a title': (n) => `<rss><channel><item><title>${'&lt;'.repeat(n / 4)}</title></item></channel></rss>`,
    'nested comments': (n) => inItem(`<![CDATA[${'<!--'.repeat(n / 4)}]]>`),
    'unclosed <script': (n) => inItem(`<![CDATA[${'<script'.repeat(n / 7)}]]>`),
    'raw < in the XML': (n) => inItem('<'.repeat(n)),
    'unclosed elements': (n) => inItem('<a>'.repeat(n / 3)),
    'stray closing tags': (n) => inItem('<a>'.repeat(n / 8) + '</b>'.repeat(n / 8)),
    'many items': (n) => `<rss><channel>${'<item><title>i</title><description>&lt;b&gt;x&lt;/b&gt;</description></item>'.repeat(n / 70)}</channel></rss>`,
  };

  it.each(Object.entries(shapes))('reads 5 MB of %s with work growing linearly', async (_name, shape) => {
    const small = shape(1.25 * MB);
    const large = shape(5 * MB);
    const g = await growthRatio(
      () => readFeed(small, 'https://h.example/'),
      () => readFeed(large, 'https://h.example/'),
    );
    // 4× the input: linear is ~4× the CPU time; quadratic would be 16×.
    expect(g.ratio, `${g.smallMs.toFixed(0)} ms → ${g.largeMs.toFixed(0)} ms of CPU`).toBeLessThan(10);
  });
});
