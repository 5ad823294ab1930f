/** RSS 2.0 and Atom 1.0 documents, and the XML text rules they share with the sitemap. */

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * `s` as XML text or a quoted attribute value: the five special characters escaped and the characters
 * XML 1.0 forbids (most control characters, lone surrogates, U+FFFE/U+FFFF) dropped, so a title from a
 * member or another site can never make the document unreadable.
 */
export function escapeXml(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    const allowed = c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || c >= 0x10000;
    if (allowed) out += XML_ENTITIES[ch] ?? ch;
  }
  return out;
}

export interface FeedEntry {
  /** Stable and unique within the feed. */
  id: string;
  title: string;
  /** Absolute URL. */
  link: string;
  summary: string;
  published: Date;
}

export interface Feed {
  title: string;
  description: string;
  /** The page the feed belongs to (absolute). */
  link: string;
  /** The feed's own address (absolute). */
  self: string;
  language: string;
  entries: readonly FeedEntry[];
}

/** An RSS 2.0 document (with atom:link rel="self", as validators ask). */
export function rssDocument(feed: Feed): string {
  const items = feed.entries.map(
    (e) =>
      `<item><title>${escapeXml(e.title)}</title><link>${escapeXml(e.link)}</link><guid isPermaLink="false">${escapeXml(e.id)}</guid>` +
      `<pubDate>${e.published.toUTCString()}</pubDate><description>${escapeXml(e.summary)}</description></item>`,
  );
  const updated = feed.entries[0]?.published ?? new Date(0);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>' +
    `<title>${escapeXml(feed.title)}</title><link>${escapeXml(feed.link)}</link><description>${escapeXml(feed.description)}</description>` +
    `<language>${escapeXml(feed.language)}</language><lastBuildDate>${updated.toUTCString()}</lastBuildDate>` +
    `<atom:link href="${escapeXml(feed.self)}" rel="self" type="application/rss+xml"/>` +
    `${items.join('')}</channel></rss>\n`
  );
}

/** An Atom 1.0 document. */
export function atomDocument(feed: Feed): string {
  const entries = feed.entries.map(
    (e) =>
      `<entry><id>${escapeXml(e.link)}#${escapeXml(e.id)}</id><title>${escapeXml(e.title)}</title><link href="${escapeXml(e.link)}"/>` +
      `<updated>${e.published.toISOString()}</updated><published>${e.published.toISOString()}</published><summary>${escapeXml(e.summary)}</summary></entry>`,
  );
  const updated = feed.entries[0]?.published ?? new Date(0);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${escapeXml(feed.language)}">` +
    `<id>${escapeXml(feed.self)}</id><title>${escapeXml(feed.title)}</title><subtitle>${escapeXml(feed.description)}</subtitle>` +
    `<link href="${escapeXml(feed.link)}"/><link rel="self" href="${escapeXml(feed.self)}"/>` +
    `<updated>${updated.toISOString()}</updated><author><name>Deep House Radio</name></author>` +
    `${entries.join('')}</feed>\n`
  );
}

export interface SitemapUrl {
  /** Absolute URL. */
  loc: string;
  lastmod?: Date;
}

/** A sitemap (sitemaps.org 0.9); at most 50,000 URLs, so callers cap what they list. */
export function sitemapDocument(urls: readonly SitemapUrl[]): string {
  const rows = urls.map((u) => `<url><loc>${escapeXml(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod.toISOString()}</lastmod>` : ''}</url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${rows.join('\n')}\n</urlset>\n`;
}

/** robots.txt: everything but `disallow` may be crawled; the sitemap's address. */
export function robotsText(publicUrl: string, disallow: readonly string[]): string {
  return `User-agent: *\n${disallow.map((p) => `Disallow: ${p}\n`).join('')}Allow: /\n\nSitemap: ${publicUrl}/sitemap.xml\n`;
}
