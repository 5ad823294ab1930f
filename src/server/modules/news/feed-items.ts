import { parseFeed } from 'feedsmith';
import ogs from 'open-graph-scraper';

/**
 * Feed and page bodies → plain news entries. Pure functions: no database, no network (the fetch
 * is lib/safe-fetch.ts). The parsers are feedsmith (RSS 2.0, Atom, RDF, JSON Feed) and
 * open-graph-scraper, which is only ever handed HTML already fetched, never a URL.
 */

export interface FeedEntry {
  /** guid, Atom id, or the link: what makes the entry the same one on the next fetch. */
  key: string;
  title: string;
  description: string;
  link: string;
  imageUrl: string | null;
  pubDate: Date | null;
}

/** Items kept per fetch (a feed of thousands keeps its newest). */
export const MAX_ENTRIES_PER_FETCH = 50;
export const TITLE_MAX = 300;
export const DESCRIPTION_MAX = 600;

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  copy: '©',
  reg: '®',
  trade: '™',
  eacute: 'é',
  egrave: 'è',
  aacute: 'á',
  oacute: 'ó',
  uacute: 'ú',
  iacute: 'í',
  uuml: 'ü',
  ouml: 'ö',
  auml: 'ä',
  szlig: 'ß',
  euro: '€',
  pound: '£',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/**
 * Markup → plain text: scripts, styles and comments dropped with their content, tags removed,
 * entities decoded, whitespace collapsed, cut to `max` characters. React escapes what is left.
 */
export function toPlainText(html: string | undefined | null, max: number): string {
  if (!html) return '';
  const text = decodeEntities(
    html
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<(script|style|noscript|iframe|template)\b[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<br\s*\/?>|<\/(p|div|li|h[1-6])>/gi, ' ')
      .replace(/<[^>]*>/g, ''),
  )
    // A second pass: text that was escaped twice (&lt;b&gt;) decodes to tags on the first.
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** An absolute http(s) address, or null: a feed's relative or javascript: link is never shown. */
export function absoluteHttpUrl(value: string | undefined | null, base: string): string | null {
  if (!value) return null;
  try {
    const u = new URL(value.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

function parseDate(value: string | undefined): Date | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

interface MediaLike {
  thumbnails?: { url?: string }[];
  contents?: { url?: string; medium?: string; type?: string; thumbnails?: { url?: string }[] }[];
  groups?: MediaLike[];
}

/** The first image of media:thumbnail / media:content (also inside media:group). */
function mediaImage(media: MediaLike | undefined): string | undefined {
  if (!media) return undefined;
  const thumb = media.thumbnails?.find((t) => t.url)?.url;
  if (thumb) return thumb;
  for (const c of media.contents ?? []) {
    if (c.url && (c.medium === 'image' || c.type?.startsWith('image/'))) return c.url;
    const inner = c.thumbnails?.find((t) => t.url)?.url;
    if (inner) return inner;
  }
  for (const g of media.groups ?? []) {
    const found = mediaImage(g);
    if (found) return found;
  }
  return undefined;
}

function firstImgSrc(html: string | undefined): string | undefined {
  if (!html) return undefined;
  return /<img\b[^>]*\bsrc\s*=\s*["']([^"']+)["']/i.exec(html)?.[1];
}

/** Thrown when a body is not a feed; the message goes to the sources page. */
export class FeedFormatError extends Error {}

/**
 * Parses an RSS 2.0, Atom, RDF or JSON feed. `base` resolves relative links. HTML served in place of
 * a feed and broken XML throw a FeedFormatError that says which.
 */
export function parseFeedEntries(body: string, base: string): FeedEntry[] {
  let parsed: ReturnType<typeof parseFeed<string>>;
  try {
    parsed = parseFeed<string>(body);
  } catch (err) {
    const head = body.slice(0, 512).trimStart().toLowerCase();
    if (head.startsWith('<!doctype html') || head.startsWith('<html') || /<html[\s>]/.test(head)) {
      throw new FeedFormatError('not a feed: the address serves an HTML page (add it as a web source, or use its feed address)');
    }
    const name = err instanceof Error ? err.name : '';
    throw new FeedFormatError(name === 'MalformedError' ? 'broken feed: the XML does not parse' : 'not a feed: no RSS, Atom or JSON Feed found');
  }
  const entries: FeedEntry[] = [];
  const push = (e: { key?: string; title?: string; description?: string; link?: string; image?: string; date?: string; html?: string }) => {
    const link = absoluteHttpUrl(e.link, base);
    const key = (e.key?.trim() || link || '').slice(0, 1000);
    const title = toPlainText(e.title, TITLE_MAX);
    if (!key || !title || !link) return;
    entries.push({
      key,
      title,
      description: toPlainText(e.description, DESCRIPTION_MAX),
      link,
      imageUrl: absoluteHttpUrl(e.image ?? firstImgSrc(e.html), link),
      pubDate: parseDate(e.date),
    });
  };
  switch (parsed.format) {
    case 'rss':
      for (const item of parsed.feed.items ?? []) {
        const enclosureImage = item.enclosures?.find((en) => en.url && (en.type?.startsWith('image/') ?? false))?.url;
        const html = item.content?.encoded ?? item.description;
        push({
          key: item.guid?.value,
          title: item.title,
          description: item.description ?? item.content?.encoded,
          link: item.link ?? (item.guid?.isPermaLink !== false ? item.guid?.value : undefined),
          image: enclosureImage ?? mediaImage(item.media),
          date: item.pubDate ?? item.dc?.dates?.[0],
          html,
        });
      }
      break;
    case 'atom':
      for (const entry of parsed.feed.entries ?? []) {
        const alternate = entry.links?.find((l) => !l.rel || l.rel === 'alternate')?.href ?? entry.links?.[0]?.href;
        const enclosureImage = entry.links?.find((l) => l.rel === 'enclosure' && (l.type?.startsWith('image/') ?? false))?.href;
        push({
          key: entry.id,
          title: entry.title?.value,
          description: entry.summary?.value ?? entry.content?.value,
          link: alternate,
          image: enclosureImage ?? mediaImage(entry.media),
          date: entry.published ?? entry.updated,
          html: entry.content?.value ?? entry.summary?.value,
        });
      }
      break;
    case 'rdf':
      for (const item of parsed.feed.items ?? []) {
        push({ key: item.link, title: item.title, description: item.description, link: item.link, date: item.dc?.dates?.[0], html: item.description });
      }
      break;
    case 'json':
      for (const item of parsed.feed.items ?? []) {
        push({
          key: item.id,
          title: item.title,
          description: item.summary ?? item.content_text ?? item.content_html,
          link: item.url ?? item.external_url,
          image: item.image ?? item.banner_image,
          date: item.date_published ?? item.date_modified,
          html: item.content_html,
        });
      }
      break;
  }
  // Newest first; entries without a date keep the feed's order after the dated ones.
  return entries.slice(0, MAX_ENTRIES_PER_FETCH);
}

/**
 * A web page → one entry from its OpenGraph / Twitter / meta tags (docs/decisions/0017: one item
 * per listed page). open-graph-scraper reads the HTML given; it is never given a URL to fetch.
 */
export async function pageEntry(html: string, pageUrl: string): Promise<FeedEntry> {
  const result = await ogs({ html, onlyGetOpenGraphInfo: false });
  if (result.error) throw new FeedFormatError('the page has no readable title or description');
  const r = result.result;
  const title = toPlainText(r.ogTitle ?? r.twitterTitle ?? r.dcTitle, TITLE_MAX);
  if (!title) throw new FeedFormatError('the page has no title (og:title or <title>)');
  const image = r.ogImage?.find((i) => i.url)?.url ?? r.twitterImage?.find((i) => i.url)?.url;
  const canonical = absoluteHttpUrl(r.ogUrl, pageUrl);
  // A page's canonical address must stay on its own site: a page cannot make its item link elsewhere.
  const link = canonical && new URL(canonical).host === new URL(pageUrl).host ? canonical : pageUrl;
  return {
    key: pageUrl,
    title,
    description: toPlainText(r.ogDescription ?? r.twitterDescription ?? r.dcDescription, DESCRIPTION_MAX),
    link,
    imageUrl: absoluteHttpUrl(image, pageUrl),
    pubDate: parseDate(r.articlePublishedTime ?? r.ogDate),
  };
}
