/**
 * Whether a link stays on this site. Browsers drop tabs and line breaks from URLs and
 * read `\` as `/`, so `/\t/evil.example/x` opens evil.example: the only sound test is to let the URL
 * parser resolve the value against the site and compare origins. The contracts do not know
 * PUBLIC_URL; any base of our own gives the same answer for a path, so a fixed one stands in for it.
 */
const SITE_BASE = 'https://dhr.invalid';

export function isSameSiteLink(value: string, base: string = SITE_BASE): boolean {
  if (!value.startsWith('/')) return false;
  try {
    return new URL(value, base).origin === new URL(base).origin;
  } catch {
    return false;
  }
}
