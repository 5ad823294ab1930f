import { child, childrenNamed, findDeep, firstText, textContent, type XmlNode } from './feed-document';
import { decodeBody } from './feed-encoding';
import { htmlToText, SUMMARY_MAX, textOrHtml, TITLE_MAX, tidy } from './plain-text';

/**
 * What each feed format calls a title, a link, a summary, an image and a date: RSS 0.9x/1.0/2.0 and
 * RDF, Atom 0.3/1.0, JSON Feed 1.0/1.1, with the dc:, media:, itunes: and content:encoded fallbacks
 * (docs/decisions/0024-news-from-the-real-web.md). Text comes out plain; links stay as written
 * (resolved, not yet checked) for feed-items.ts to judge.
 */

export interface RawEntry {
  guid?: string;
  title: string;
  text: string;
  link?: string;
  image?: string;
  date?: string;
}

export interface RawFeed {
  format: string;
  /** The feed's own site link (a fallback for items without one). */
  link?: string;
  /** Entries the document lists. */
  found: number;
  /** Mapped as they are read: a feed of 70,000 items maps only those kept. */
  entries: Iterable<RawEntry>;
}

function* mapped<T>(items: T[], fn: (item: T) => RawEntry): Iterable<RawEntry> {
  for (const item of items) yield fn(item);
}

function resolve(value: string | undefined, base: string): string | undefined {
  if (!value?.trim()) return undefined;
  try {
    return new URL(value.trim(), base).href;
  } catch {
    return undefined;
  }
}

/** Markup types: read as HTML once decoded (XHTML is HTML to the reader). */
const MARKUP_TYPES = new Set(['html', 'text/html', 'xhtml', 'application/xhtml+xml']);

/** Base64 text in the charset its media type names (UTF-8 when none, or one not known). */
function fromBase64(value: string, charset: string | undefined): string {
  const bytes = Buffer.from(value.replace(/\s+/g, ''), 'base64');
  return decodeBody(bytes, charset ? `text/plain; charset=${charset}` : undefined).text;
}

/** Scripts are never text to show, whatever charset they declare. */
const SCRIPT_TYPES = new Set(['application/javascript', 'application/ecmascript', 'application/x-javascript', 'text/javascript']);

/** A type outside text/* and XML that still carries text: JSON, or any type that names its charset. */
function carriesText(mediaType: string, charset: string | undefined): boolean {
  if (SCRIPT_TYPES.has(mediaType)) return false;
  return charset !== undefined || mediaType === 'application/json' || mediaType.endsWith('+json');
}

/**
 * An Atom text construct (or Atom 0.3 content) as written, base64 decoded, and whether it is HTML.
 * Atom 0.3 marks base64 with mode="base64", whatever the type. RFC 4287 §4.1.3.3: text (text, html,
 * text/*) is escaped text, XHTML and XML types are inline, and any other type is base64. Decoded, only
 * what carries text is shown (in the charset its type names); images, audio, PDFs and scripts give nothing.
 */
function atomValue(node: XmlNode | undefined): { value: string; html: boolean } {
  if (!node) return { value: '', html: false };
  const [mediaType = 'text', ...params] = (node.attrs.type ?? 'text')
    .toLowerCase()
    .split(';')
    .map((part) => part.trim());
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice(8)
    .replace(/^["']|["']$/g, '');
  const mode = node.attrs.mode?.toLowerCase();
  const isText = mediaType === 'text' || mediaType === 'html' || mediaType.startsWith('text/');
  const isXml = mediaType === 'xhtml' || mediaType.endsWith('+xml') || mediaType.endsWith('/xml');
  const html = MARKUP_TYPES.has(mediaType) || mode === 'escaped';
  const value = textContent(node);
  if (mode !== 'base64' && (isText || isXml)) return { value, html };
  if (SCRIPT_TYPES.has(mediaType) || !(isText || isXml || carriesText(mediaType, charset))) return { value: '', html: false };
  // Decoded XML other than XHTML is markup too: its text is read, its tags are not.
  return { value: fromBase64(value, charset), html: html || isXml };
}

/** Plain text of an Atom construct: HTML read as markup; text stays as written ("History of the <blink> tag"); inline XHTML is its text. */
function atomText(node: XmlNode | undefined, max: number): string {
  const { value, html } = atomValue(node);
  return html ? htmlToText(value, max) : tidy(value, max);
}

/** The first image in inline or escaped HTML (an <img> inside content), resolved. */
function firstImage(node: XmlNode | undefined, base: string): string | undefined {
  if (!node) return undefined;
  const img = findDeep(node, 'xhtml:img') ?? findDeep(node, 'img');
  if (img?.attrs.src) return resolve(img.attrs.src, img.base);
  const html = textContent(node);
  const at = html.indexOf('<img');
  if (at === -1) return undefined;
  // The attribute read from a bounded slice: src="…" of the first <img.
  const m = /\ssrc\s*=\s*["']([^"'<>]{1,2000})["']/i.exec(html.slice(at, at + 2500));
  return m ? resolve(m[1], base) : undefined;
}

/** media:thumbnail, media:content (an image), in media:group too; then itunes:image. */
function mediaImage(node: XmlNode, base: string): string | undefined {
  const thumb = findDeep(node, 'media:thumbnail', 2);
  if (thumb?.attrs.url) return resolve(thumb.attrs.url, thumb.base);
  const contents = [...childrenNamed(node, 'media:content'), ...childrenNamed(child(node, 'media:group'), 'media:content')];
  const image = contents.find((c) => c.attrs.medium === 'image' || c.attrs.type?.startsWith('image/'));
  if (image?.attrs.url) return resolve(image.attrs.url, image.base);
  const itunes = child(node, 'itunes:image');
  return resolve(itunes?.attrs.href ?? itunes?.text, base);
}

/** The first of `nodes` with visible text (an empty <description/> is no description). */
function firstWithText(nodes: (XmlNode | undefined)[]): XmlNode | undefined {
  return nodes.find((n) => textContent(n).trim() !== '');
}

/** What podcasts and video feeds describe an item with: itunes:summary, media:description, and media:group's. */
function podcastTexts(node: XmlNode): (XmlNode | undefined)[] {
  return [child(node, 'itunes:summary'), child(node, 'media:description'), child(child(node, 'media:group'), 'media:description')];
}

/** A podcast text as an item's text: read like an RSS description (escaped HTML is common in itunes:summary). */
function mediaText(node: XmlNode | undefined): string {
  return node ? htmlToText(textContent(node), SUMMARY_MAX) : '';
}

function mediaTitle(node: XmlNode): string {
  const t = child(node, 'media:title') ?? child(child(node, 'media:group'), 'media:title');
  if (!t) return '';
  return t.attrs.type === 'html' ? htmlToText(t.text, TITLE_MAX) : tidy(t.text, TITLE_MAX);
}

function rssEntry(item: XmlNode): RawEntry {
  const base = item.base;
  const guidNode = child(item, 'guid');
  const guid = guidNode?.text.trim() || item.attrs['rdf:about'] || firstText(item, 'dc:identifier');
  const description = child(item, 'description') ?? child(item, 'dc:description');
  const content = child(item, 'content:encoded');
  const summary = firstWithText([description, content, ...podcastTexts(item), child(item, 'itunes:subtitle')]);
  const enclosure = childrenNamed(item, 'enclosure').find((e) => e.attrs.type?.startsWith('image/'));
  const atomLink = childrenNamed(item, 'atom:link').find((l) => !l.attrs.rel || l.attrs.rel === 'alternate');
  const linkNode = child(item, 'link');
  return {
    guid,
    title: textOrHtml(firstText(item, 'title', 'dc:title', 'itunes:title'), TITLE_MAX) || mediaTitle(item),
    text: htmlToText(textContent(summary), SUMMARY_MAX),
    link: resolve(textContent(linkNode), linkNode?.base ?? base) ?? resolve(atomLink?.attrs.href, atomLink?.base ?? base),
    image: resolve(enclosure?.attrs.url, base) ?? mediaImage(item, base) ?? firstImage(content ?? description, base),
    date: firstText(item, 'pubDate', 'dc:date', 'dc:issued', 'dc:modified', 'atom:updated'),
  };
}

function atomEntry(entry: XmlNode): RawEntry {
  const links = childrenNamed(entry, 'atom:link');
  const alternate = links.find((l) => !l.attrs.rel || l.attrs.rel === 'alternate') ?? links.find((l) => l.attrs.rel !== 'enclosure' && l.attrs.rel !== 'self');
  const enclosure = links.find((l) => l.attrs.rel === 'enclosure' && l.attrs.type?.startsWith('image/'));
  const content = child(entry, 'atom:content');
  const summary = child(entry, 'atom:summary');
  return {
    guid: firstText(entry, 'atom:id'),
    title: atomText(child(entry, 'atom:title'), TITLE_MAX) || textOrHtml(firstText(entry, 'dc:title'), TITLE_MAX) || mediaTitle(entry),
    text: atomText(summary, SUMMARY_MAX) || atomText(content, SUMMARY_MAX) || mediaText(firstWithText(podcastTexts(entry))),
    link: resolve(alternate?.attrs.href, alternate?.base ?? entry.base),
    image:
      resolve(enclosure?.attrs.href, enclosure?.base ?? entry.base) ??
      mediaImage(entry, entry.base) ??
      firstImage(atomContentNode(content ?? summary), content?.base ?? entry.base),
    date: firstText(entry, 'atom:published', 'atom:updated', 'atom:issued', 'atom:modified', 'atom:created', 'dc:date'),
  };
}

/** An XML document's root → its entries, or undefined when the root is no feed. */
export function xmlFeed(root: XmlNode): RawFeed | undefined {
  if (root.name === 'rss' || root.name === 'channel' || root.name === 'rdf:RDF') {
    const channel = root.name === 'channel' ? root : child(root, 'channel');
    // RSS 0.9x/2.0 list items in the channel; RSS 0.90/1.0 (RDF) beside it.
    const items = [...childrenNamed(channel, 'item'), ...(root.name === 'rdf:RDF' ? childrenNamed(root, 'item') : [])];
    const format = root.name === 'rdf:RDF' ? 'RDF' : `RSS ${root.attrs.version ?? ''}`.trim();
    return { format, link: resolve(textContent(child(channel, 'link')), channel?.base ?? root.base), found: items.length, entries: mapped(items, rssEntry) };
  }
  if (root.name === 'atom:feed') {
    const self = childrenNamed(root, 'atom:link').find((l) => !l.attrs.rel || l.attrs.rel === 'alternate');
    const format = `Atom ${root.attrs.version === '0.3' ? '0.3' : '1.0'}`;
    const entries = childrenNamed(root, 'atom:entry');
    return { format, link: resolve(self?.attrs.href, self?.base ?? root.base), found: entries.length, entries: mapped(entries, atomEntry) };
  }
  return undefined;
}

interface JsonFeedItem {
  id?: unknown;
  url?: unknown;
  external_url?: unknown;
  title?: unknown;
  summary?: unknown;
  content_text?: unknown;
  content_html?: unknown;
  image?: unknown;
  banner_image?: unknown;
  date_published?: unknown;
  date_modified?: unknown;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

/** JSON Feed 1.0 / 1.1: title and links are plain; content_html is HTML. */
export function jsonFeed(doc: unknown, base: string): RawFeed | undefined {
  if (!doc || typeof doc !== 'object') return undefined;
  const feed = doc as { version?: unknown; home_page_url?: unknown; items?: unknown };
  if (!str(feed.version)?.startsWith('https://jsonfeed.org/version/')) return undefined;
  const items = (Array.isArray(feed.items) ? (feed.items as unknown[]) : []).filter((i): i is JsonFeedItem => Boolean(i) && typeof i === 'object');
  return {
    found: items.length,
    format: `JSON Feed ${str(feed.version)?.split('/').pop() ?? ''}`,
    link: resolve(str(feed.home_page_url), base),
    entries: mapped(items, (i) => ({
      guid: str(i.id),
      title: tidy(str(i.title) ?? '', TITLE_MAX),
      text: tidy(str(i.summary) ?? str(i.content_text) ?? '', SUMMARY_MAX) || htmlToText(str(i.content_html), SUMMARY_MAX),
      link: resolve(str(i.url) ?? str(i.external_url), base),
      image: resolve(str(i.image) ?? str(i.banner_image), base) ?? firstImageInHtml(str(i.content_html), base),
      date: str(i.date_published) ?? str(i.date_modified),
    })),
  };
}

/** Decoded Atom content as a node firstImage can read (base64 HTML hides its <img>). */
function atomContentNode(node: XmlNode | undefined): XmlNode | undefined {
  if (!node || node.children.length > 0) return node;
  return { ...node, text: atomValue(node).value };
}

function firstImageInHtml(html: string | undefined, base: string): string | undefined {
  return html ? firstImage({ name: '#html', attrs: {}, children: [], text: html, base }, base) : undefined;
}
