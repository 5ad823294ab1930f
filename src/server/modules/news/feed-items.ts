import ogs from 'open-graph-scraper';
import { turnTaker } from '../../lib/event-loop';
import { parseXml } from './feed-document';
import { jsonFeed, xmlFeed, type RawEntry, type RawFeed } from './feed-formats';
import { htmlToText, SUMMARY_MAX, textOrHtml, TITLE_MAX } from './plain-text';

/**
 * Feed and page bodies (already decoded to text, feed-encoding.ts) → the entries a reader would keep
 * (docs/decisions/0024-news-from-the-real-web.md). No database, no network: the fetch is
 * lib/outbound-http.ts safeFetch; open-graph-scraper is only ever handed HTML already fetched, never a URL.
 */

export interface FeedEntry {
  /** guid (Atom id), else the item's own link, else title and date: the same entry on the next fetch. */
  key: string;
  title: string;
  description: string;
  link: string;
  imageUrl: string | null;
  pubDate: Date | null;
}

/** What a feed held and what became of it: the sources page shows it. */
export interface FeedRead {
  format: string;
  /** Entries the document lists. */
  found: number;
  entries: FeedEntry[];
  /** Entries not kept, by reason (DROP_REASONS). */
  dropped: Record<string, number>;
  warnings: string[];
}

/** Items kept per fetch (a feed of thousands keeps its first, newest ones). */
export const MAX_ENTRIES_PER_FETCH = 50;
/** A title made from an item's text (first sentence, at most 120 characters). */
export const DERIVED_TITLE_MAX = 120;
export const DROP_REASONS = {
  empty: 'had neither text nor link',
  duplicate: 'repeated an earlier entry',
  beyond: `came after the first ${MAX_ENTRIES_PER_FETCH} kept`,
} as const;
/** Entries read at most (duplicates and empty ones included): a hostile feed of 70,000 copies stops here. */
const MAX_ENTRIES_READ = 10 * MAX_ENTRIES_PER_FETCH;

/** Thrown when a body is not a feed; the message goes to the sources page. */
export class FeedFormatError extends Error {}

/** An absolute http(s) address, or null: a feed's javascript: or data: link is never shown. */
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
  const d = new Date(value.trim());
  return Number.isNaN(d.getTime()) ? null : d;
}

/** The first sentence of `text`, at most DERIVED_TITLE_MAX characters (cut at a word, with an ellipsis). */
export function firstSentence(text: string): string {
  const head = text.slice(0, DERIVED_TITLE_MAX + 1);
  for (let i = 0; i < head.length && i < DERIVED_TITLE_MAX; i++) {
    const c = head[i];
    if ((c === '.' || c === '!' || c === '?') && (i + 1 === text.length || head[i + 1] === ' ')) return head.slice(0, i + 1);
    if (c === '。' || c === '！' || c === '？') return head.slice(0, i + 1);
  }
  if (text.length <= DERIVED_TITLE_MAX) return text;
  const cut = head.slice(0, DERIVED_TITLE_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > DERIVED_TITLE_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A link shown as a title when an item has nothing else: its host and path. */
function linkAsTitle(link: string): string {
  const u = new URL(link);
  return `${u.host}${u.pathname === '/' ? '' : u.pathname}`.slice(0, TITLE_MAX);
}

/**
 * Raw entries → kept entries: a title from the text when there is none, a link from the guid, the
 * feed's link or the feed's address, duplicates (by guid, then link, then title and date) dropped.
 */
async function keepEntries(raw: RawFeed, address: string, warnings: string[]): Promise<FeedRead> {
  const feedLink = absoluteHttpUrl(raw.link, address) ?? absoluteHttpUrl(address, address) ?? address;
  const entries: FeedEntry[] = [];
  const dropped: Record<string, number> = {};
  const drop = (reason: string) => (dropped[reason] = (dropped[reason] ?? 0) + 1);
  const seen = { guid: new Set<string>(), link: new Set<string>(), titleDate: new Set<string>() };
  let read = 0;
  const takeTurn = turnTaker();
  for (const e of raw.entries) {
    if (entries.length >= MAX_ENTRIES_PER_FETCH || read >= MAX_ENTRIES_READ) break;
    read += 1;
    await takeTurn();
    const kept = keep(e);
    if (!kept) drop(DROP_REASONS.empty);
    else if (isDuplicate(kept, e)) drop(DROP_REASONS.duplicate);
    else entries.push(kept);
  }
  // The rest is not even mapped.
  if (raw.found > read) dropped[DROP_REASONS.beyond] = raw.found - read;
  return { format: raw.format, found: raw.found, entries, dropped, warnings };

  function keep(e: RawEntry): FeedEntry | undefined {
    const guid = e.guid?.trim().slice(0, 1000) || undefined;
    const ownLink = absoluteHttpUrl(e.link, address) ?? absoluteHttpUrl(guidUrl(guid), address);
    if (!e.title && !e.text && !ownLink) return undefined;
    const title = e.title || (e.text ? firstSentence(e.text) : linkAsTitle(ownLink ?? feedLink));
    const pubDate = parseDate(e.date);
    return {
      key: guid ?? ownLink ?? `${title}\n${pubDate?.toISOString() ?? ''}`,
      title,
      description: e.text,
      link: ownLink ?? feedLink,
      imageUrl: absoluteHttpUrl(e.image, address),
      pubDate,
    };
  }

  function isDuplicate(kept: FeedEntry, e: RawEntry): boolean {
    const guid = e.guid?.trim();
    const link = kept.link === feedLink ? undefined : kept.link;
    const titleDate = `${kept.title}\n${kept.pubDate?.toISOString() ?? ''}`;
    if ((guid && seen.guid.has(guid)) || (link && seen.link.has(link)) || seen.titleDate.has(titleDate)) return true;
    if (guid) seen.guid.add(guid);
    if (link) seen.link.add(link);
    seen.titleDate.add(titleDate);
    return false;
  }
}

/** A guid that is an absolute http(s) address. */
function guidUrl(guid: string | undefined): string | undefined {
  return guid && /^https?:\/\//i.test(guid) ? guid : undefined;
}

/**
 * Reads an RSS 0.9x/1.0/2.0, RDF, Atom 0.3/1.0 or JSON feed. `address` is the document's address
 * (Content-Location, else the address after redirects): relative links resolve against it after
 * xml:base. What is not a feed throws a FeedFormatError that says what it is.
 */
export async function readFeed(text: string, address: string): Promise<FeedRead> {
  const start = text.trimStart();
  if (start.startsWith('{')) {
    let doc: unknown;
    try {
      doc = JSON.parse(start);
    } catch {
      throw new FeedFormatError('broken feed: the JSON does not parse');
    }
    const feed = jsonFeed(doc, address);
    if (!feed) throw new FeedFormatError('not a feed: JSON without a JSON Feed version');
    return keepEntries(feed, address, []);
  }
  const { root, warnings } = await parseXml(start, address);
  if (!root) throw new FeedFormatError('not a feed: the body has no XML elements');
  if (root.name === 'html' || root.name === 'xhtml:html') {
    throw new FeedFormatError('not a feed: the address serves an HTML page (add it as a web source, or use its feed address)');
  }
  const feed = xmlFeed(root);
  if (!feed) throw new FeedFormatError(`not a feed: the document is <${root.name.slice(0, 40)}>, not RSS, Atom or RDF`);
  return keepEntries(feed, address, warnings);
}

/** Why a feed gave no item, in a reader's words ("12 entries had neither text nor link"). */
export function whyNoItems(read: FeedRead): string | null {
  if (read.entries.length > 0) return null;
  if (read.found === 0) return `the ${read.format} feed lists no entries`;
  return Object.entries(read.dropped)
    .map(([reason, n]) => `${n} ${n === 1 ? 'entry' : 'entries'} ${reason}`)
    .join('; ');
}

/**
 * A web page → one entry from its OpenGraph / Twitter / meta tags (docs/decisions/0017: one item
 * per listed page). open-graph-scraper reads the HTML given; it is never given a URL to fetch.
 */
export async function pageEntry(html: string, pageUrl: string): Promise<FeedEntry> {
  const result = await ogs({ html, onlyGetOpenGraphInfo: false });
  if (result.error) throw new FeedFormatError('the page has no readable title or description');
  const r = result.result;
  const title = textOrHtml(r.ogTitle ?? r.twitterTitle ?? r.dcTitle, TITLE_MAX);
  if (!title) throw new FeedFormatError('the page has no title (og:title or <title>)');
  const image = r.ogImage?.find((i) => i.url)?.url ?? r.twitterImage?.find((i) => i.url)?.url;
  const canonical = absoluteHttpUrl(r.ogUrl, pageUrl);
  // A page's canonical address must stay on its own site: a page cannot make its item link elsewhere.
  const link = canonical && new URL(canonical).host === new URL(pageUrl).host ? canonical : pageUrl;
  return {
    key: pageUrl,
    title,
    description: htmlToText(r.ogDescription ?? r.twitterDescription ?? r.dcDescription, SUMMARY_MAX),
    link,
    imageUrl: absoluteHttpUrl(image, pageUrl),
    pubDate: parseDate(r.articlePublishedTime ?? r.ogDate),
  };
}
