import { createRequire } from 'node:module';
import { withoutInvisible } from '../../contracts/text-field';

/**
 * Whether a text carries a link, for the hold that sends linked chat messages and comments to a
 * moderator. Spammers write links so that a short pattern misses them: any country or brand domain
 * (`bit.ly`, `t.me`, `discord.gg`, `example.co.uk`), a dot spelled out or bracketed (`example[.]com`,
 * `example (dot) com`), full-width or ideographic dots and letters (`ｅｘａｍｐｌｅ．ｃｏｍ`),
 * zero-width characters inside a name. So the text is normalised first (NFKC, invisible characters
 * dropped, spelled-out dots made dots), then cut into words, and a word is a link when it has a
 * scheme, starts with `www.`, is an IPv4 address, or is a dotted name whose last label is one of
 * the IANA top-level domains (the `tlds` package, about 1,400 of them, updated with it). One pass
 * over the text, no backtracking pattern: linear on hostile input (link-detector.test.ts).
 *
 * A chat typo such as "great set.love it" is held too (`.love` is a top-level domain): a moderator
 * approves it from the one queue, which is the cheaper mistake.
 */
const TOP_LEVEL_DOMAINS: ReadonlySet<string> = new Set((createRequire(import.meta.url)('tlds') as string[]).map((t) => t.toLowerCase()));

/** Zero-width joiners too: between the letters of a host name they only hide it. */
const JOINERS = /[\u200C\u200D]/g;
/** Dots that are not ASCII after NFKC: ideographic and half-width ideographic full stops. */
const OTHER_DOTS = /[\u3002\uFF61]/g;
/** A dot in brackets or spelled out: `[.]`, `(.)`, `{.}`, `[dot]`, `(dot)`, ` dot `. */
const SPELLED_DOT = /\s*[[({]\s*(?:\.|dot)\s*[\])}]\s*|\s+dot\s+/gi;
/** What ends a word: anything that cannot be in a host name, a path or a scheme. */
const WORD_BREAK = /[\s<>()[\]{}"'`,;!|\\^*]+/u;
const LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;

export function normaliseForLinks(text: string): string {
  return withoutInvisible(text.normalize('NFKC')).replace(JOINERS, '').replace(OTHER_DOTS, '.').replace(SPELLED_DOT, '.').toLowerCase();
}

/** The host part of a word: after a user part (`me@host`), before a path, query, fragment or port. */
function hostOf(word: string): string {
  const afterUser = word.slice(word.lastIndexOf('@') + 1);
  const end = afterUser.search(/[/?#:]/);
  return (end === -1 ? afterUser : afterUser.slice(0, end)).replace(/^[.-]+|[.-]+$/g, '');
}

function isLinkWord(word: string): boolean {
  if (word.includes('://') || word.startsWith('www.')) return true;
  const host = hostOf(word);
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return false;
  if (labels.length === 4 && labels.every((l) => /^\d{1,3}$/.test(l))) return true;
  const tld = labels[labels.length - 1] ?? '';
  return TOP_LEVEL_DOMAINS.has(tld);
}

export function hasLink(text: string): boolean {
  return normaliseForLinks(text).split(WORD_BREAK).some(isLinkWord);
}
