import { escapeHtml } from '../../lib/html';

/** Longest title and description written into a page (search results cut them shorter anyway). */
export const TITLE_MAX = 120;
export const DESCRIPTION_MAX = 300;

/** A feed a page links to with `<link rel="alternate">`. */
export interface FeedLink {
  type: 'application/rss+xml' | 'application/atom+xml';
  title: string;
  path: string;
}

/** What one URL says about itself to crawlers and link previews. */
export interface PageHead {
  title: string;
  description: string;
  /** The page's path as the canonical URL names it (already a URL path: encoded). */
  path: string;
  /** The preview image's path on this site. */
  image?: string;
  feeds?: readonly FeedLink[];
  /** Pages that must not be listed by search engines (accounts, admin, not found). */
  noindex?: boolean;
}

/**
 * `text` as one line of at most `max` characters: control characters and runs of white space become
 * one space, and a longer text is cut (on a code point, never inside a surrogate pair) with an ellipsis.
 */
export function capText(text: string, max: number): string {
  let out = '';
  let count = 0;
  let space = false;
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if (c <= 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029) {
      space = out.length > 0;
      continue;
    }
    if (space) {
      out += ' ';
      count++;
      space = false;
    }
    if (count >= max - 1) return `${out.trimEnd()}…`;
    out += ch;
    count++;
  }
  return out;
}

/** The page's own tags for the head, every value capped and escaped; `jsonLd` is already safe script text. */
export function renderHead(head: PageHead, publicUrl: string, jsonLd: string): string {
  const title = escapeHtml(capText(head.title, TITLE_MAX));
  const description = escapeHtml(capText(head.description, DESCRIPTION_MAX));
  const url = escapeHtml(`${publicUrl}${head.path}`);
  const image = escapeHtml(`${publicUrl}${head.image ?? '/og-image.png'}`);
  const lines = [
    `<title>${title}</title>`,
    `<meta name="description" content="${description}" />`,
    `<link rel="canonical" href="${url}" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${url}" />`,
    `<meta property="og:image" content="${image}" />`,
    `<meta name="twitter:title" content="${title}" />`,
    `<meta name="twitter:description" content="${description}" />`,
    `<meta name="twitter:image" content="${image}" />`,
  ];
  if (head.noindex) lines.push('<meta name="robots" content="noindex" />');
  for (const feed of head.feeds ?? []) {
    lines.push(
      `<link rel="alternate" type="${feed.type}" title="${escapeHtml(capText(feed.title, TITLE_MAX))}" href="${escapeHtml(`${publicUrl}${feed.path}`)}" />`,
    );
  }
  lines.push(`<script type="application/ld+json">${jsonLd}</script>`);
  return lines.join('\n    ');
}
