import { describe, expect, it } from 'vitest';
import { decodeBody } from './feed-encoding';
import { readFeed } from './feed-items';

/**
 * Feeds as real publishers write them: podcast and video texts,
 * ISO-8859-1 labels on windows-1252 bytes, base64 Atom content, inline scripts, a namespaced RSS root.
 */

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

describe('an item without a description takes its podcast or video text', () => {
  it('reads itunes:summary, media:description and media:group’s media:description, in that order, past an empty description', async () => {
    const feed = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:media="http://search.yahoo.com/mrss/">
  <channel><title>Deep Cuts Podcast</title><link>https://pod.example/</link>
    <item><title>Episode 12</title><link>https://pod.example/12</link><description></description>
      <itunes:summary>Two hours of &lt;b&gt;deep&lt;/b&gt; house from Dublin.</itunes:summary>
      <enclosure url="https://pod.example/12.mp3" length="1" type="audio/mpeg"/></item>
    <item><title>Episode 13</title><link>https://pod.example/13</link>
      <media:description type="plain">A live set recorded at the Button Factory.</media:description></item>
    <item><title>Session 4</title><link>https://pod.example/s4</link>
      <media:group><media:title>Session 4</media:title><media:content url="https://pod.example/s4.mp4" type="video/mp4"/>
        <media:description>Filmed in one take, vinyl only.</media:description></media:group></item>
    <item><title>Episode 14</title><link>https://pod.example/14</link><description>The description wins.</description>
      <itunes:summary>Not this.</itunes:summary></item>
  </channel>
</rss>`;
    const { entries } = await readFeed(feed, 'https://pod.example/feed.xml');
    expect(entries.map((e) => e.description)).toEqual([
      'Two hours of deep house from Dublin.',
      'A live set recorded at the Button Factory.',
      'Filmed in one take, vinyl only.',
      'The description wins.',
    ]);
  });

  it('reads them in Atom too (YouTube puts the text in media:group)', async () => {
    const feed = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" xmlns="http://www.w3.org/2005/Atom">
  <title>DHR Sessions</title><link rel="alternate" href="https://www.youtube.com/channel/UC1"/>
  <entry><id>yt:video:abc</id><yt:videoId>abc</yt:videoId><title>Sunrise set</title>
    <link rel="alternate" href="https://www.youtube.com/watch?v=abc"/><published>2026-11-20T08:00:00+00:00</published>
    <media:group><media:title>Sunrise set</media:title><media:thumbnail url="https://i.ytimg.example/abc.jpg" width="480" height="360"/>
      <media:description>Recorded on the roof at dawn.</media:description></media:group></entry>
</feed>`;
    const { entries } = await readFeed(feed, 'https://www.youtube.com/feeds/videos.xml?channel_id=UC1');
    expect(entries[0]).toMatchObject({ description: 'Recorded on the roof at dawn.', imageUrl: 'https://i.ytimg.example/abc.jpg' });
  });
});

describe('a feed labelled ISO-8859-1 is read as windows-1252, as browsers read it', () => {
  // “Quoted” – and — as windows-1252 writes them: 0x93, 0x94, 0x96, 0x97 (C1 controls in true Latin-1).
  const body = (declaration: string) =>
    Buffer.concat([
      Buffer.from(`<?xml version="1.0"${declaration}?>\n<rss version="2.0"><channel><link>https://w.example/</link><item><title>Caf`, 'latin1'),
      Buffer.from([0xe9, 0x20, 0x93]),
      Buffer.from('Tonight', 'latin1'),
      Buffer.from([0x94, 0x20, 0x96, 0x20]),
      Buffer.from('live', 'latin1'),
      Buffer.from([0x97]),
      Buffer.from('</title><link>https://w.example/1</link><description>10', 'latin1'),
      Buffer.from([0x96]),
      Buffer.from('12 o', 'latin1'),
      Buffer.from([0x92]),
      Buffer.from('clock</description></item></channel></rss>', 'latin1'),
    ]);

  it.each([
    ['the XML declaration', ' encoding="ISO-8859-1"', undefined],
    ['the XML declaration (another label)', ' encoding="iso8859-1"', undefined],
    ['the HTTP header', '', 'application/rss+xml; charset=ISO8859-1'],
    ['the HTTP header (latin1)', '', 'text/xml; charset=latin1'],
  ])('from %s', async (_where, declaration, contentType) => {
    const decoded = decodeBody(body(declaration), contentType);
    expect(decoded.encoding).toBe('windows-1252');
    const { entries } = await readFeed(decoded.text, 'https://w.example/feed');
    expect(entries[0]).toMatchObject({ title: 'Café “Tonight” – live—', description: '10–12 o’clock' });
  });
});

describe('base64 Atom content', () => {
  it('Atom 1.0: decodes the other types that carry text (JSON, a named charset), keeps text/* as written, shows nothing of the rest', async () => {
    const latin1 = Buffer.concat([Buffer.from('Caf', 'latin1'), Buffer.from([0xe9, 0x20, 0x93]), Buffer.from('open', 'latin1'), Buffer.from([0x94])]);
    const feed = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>B</title>
  <entry><id>1</id><title>Subtitles</title><link href="https://b.example/1"/><content type="application/x-subrip; charset=iso-8859-1">${b64(latin1)}</content></entry>
  <entry><id>2</id><title>Json</title><link href="https://b.example/2"/><content type="application/json">${b64('{"set":"Sunrise"}')}</content></entry>
  <entry><id>3</id><title>Text</title><link href="https://b.example/3"/><content type="text/plain">Plain words, not base64</content></entry>
  <entry><id>4</id><title>Png</title><link href="https://b.example/4"/><content type="image/png">${b64(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]))}</content></entry>
  <entry><id>5</id><title>Script</title><link href="https://b.example/5"/><content type="application/javascript; charset=utf-8">${b64('alert("x")')}</content></entry>
  <entry><id>6</id><title>Pdf</title><link href="https://b.example/6"/><summary type="text">Read the PDF.</summary><content type="application/pdf" src="https://b.example/6.pdf"/></entry>
</feed>`;
    const { entries } = await readFeed(feed, 'https://b.example/atom');
    expect(entries.map((e) => e.description)).toEqual(['Café “open”', '{"set":"Sunrise"}', 'Plain words, not base64', '', '', 'Read the PDF.']);
  });

  it('Atom 0.3: decodes mode="base64" text in its charset, and HTML and XHTML as markup', async () => {
    const latin1 = Buffer.concat([Buffer.from('Caf', 'latin1'), Buffer.from([0xe9, 0x20, 0x96, 0x20]), Buffer.from('open', 'latin1')]);
    const feed = `<feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>Old</title>
  <entry><id>a</id><title>Html</title><link rel="alternate" href="https://o.example/a"/><issued>2026-01-01T00:00:00Z</issued>
    <content type="text/html" mode="base64">${b64('<p>Sets <b>all</b> night<script>steal()</script></p>')}</content></entry>
  <entry><id>b</id><title>Xhtml</title><link rel="alternate" href="https://o.example/b"/><issued>2026-01-02T00:00:00Z</issued>
    <content type="application/xhtml+xml" mode="base64">${b64('<div xmlns="http://www.w3.org/1999/xhtml"><p>Vinyl <em>only</em></p><style>p{}</style></div>')}</content></entry>
  <entry><id>c</id><title>Latin</title><link rel="alternate" href="https://o.example/c"/><issued>2026-01-03T00:00:00Z</issued>
    <content type="text/plain; charset=iso-8859-1" mode="base64">${b64(latin1)}</content></entry>
</feed>`;
    const { entries } = await readFeed(feed, 'https://o.example/');
    expect(entries.map((e) => e.description)).toEqual(['Sets all night', 'Vinyl only', 'Café – open']);
  });
});

describe('scripts, styles and objects never become text', () => {
  it('in inline XHTML content, unescaped markup in a description, and escaped HTML', async () => {
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><title>X</title>
  <entry><id>1</id><title>Inline</title><link href="https://x.example/1"/>
    <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Before</p><script type="text/javascript">document.write("pwned")</script><style>.a{color:red}</style><object data="f.swf"><param name="m" value="f.swf"/>Flash fallback</object><p>After</p></div></content></entry>
</feed>`;
    const rss = `<rss version="2.0"><channel><link>https://x.example/</link>
  <item><title>Raw</title><link>https://x.example/2</link><description><p>Lead</p><script>alert(1)</script><style>body{}</style><object>Plugin text</object><p>tail</p></description></item>
  <item><title>Escaped</title><link>https://x.example/3</link><description>&lt;p&gt;One&lt;/p&gt;&lt;script&gt;var x = "two";&lt;/script&gt;&lt;object&gt;three&lt;/object&gt;&lt;style&gt;p{}&lt;/style&gt;&lt;p&gt;four&lt;/p&gt;</description></item>
</channel></rss>`;
    const [a, r] = await Promise.all([readFeed(atom, 'https://x.example/atom'), readFeed(rss, 'https://x.example/rss')]);
    expect(a.entries[0]?.description).toBe('Before After');
    expect(r.entries.map((e) => e.description)).toEqual(['Lead tail', 'One four']);
  });
});

describe('RSS with a namespaced root', () => {
  it('reads <rss xmlns="http://backend.userland.com/rss2"> as RSS 2.0', async () => {
    const feed = `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns="http://backend.userland.com/rss2" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel><title>Scripting News</title><link>http://scripting.example/</link>
    <item><title>Namespaced</title><link>http://scripting.example/2026/11/27/ns</link><description>Still RSS.</description>
      <guid isPermaLink="false">ns-1</guid><pubDate>Fri, 27 Nov 2026 09:00:00 GMT</pubDate></item>
  </channel>
</rss>`;
    const read = await readFeed(feed, 'http://scripting.example/rss.xml');
    expect(read.format).toBe('RSS 2.0');
    expect(read.entries[0]).toMatchObject({ title: 'Namespaced', description: 'Still RSS.', link: 'http://scripting.example/2026/11/27/ns' });
  });
});
