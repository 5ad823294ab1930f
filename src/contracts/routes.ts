/**
 * Every page path of the web app. The web router registers these and the
 * server answers them with the app's HTML (200); other non-API paths get the app's 404 page.
 */
export const PAGE_PATHS = [
  '/',
  '/simple-auth',
  '/simple-auth/link',
  '/verify-email',
  '/auth',
  '/auth/patreon',
  '/set-password',
  '/forgot-password',
  '/reset-password',
  '/admin-setup',
  '/account/delete',
  '/account/email',
  '/privacy',
  '/dhr1',
  '/dhr2',
  '/vip',
  '/forum',
  '/upload',
  '/shop',
  '/track-ident',
  '/birdy',
  '/player',
  '/player/:channel',
  '/admin',
  '/admin-dashboard',
  '/live-monitor',
  '/user-management',
  '/admin/supporters',
  '/forum-moderation',
  '/vip-admin',
  '/admin/track-history',
  '/admin/news-sources',
  '/admin/contact',
  '/shop-admin',
  '/members',
  '/manual-users',
  '/sync',
  '/bulk-import',
  '/storage-setup',
  '/analytics',
  '/admin-settings',
  '/vip/track-history',
  '/track-history',
  '/admin/submissions',
  '/newsletter/confirm',
  '/newsletter/unsubscribe',
  '/news',
  '/news/:id',
  '/forum/:id',
  '/profile/:id',
] as const;

/**
 * Path prefixes of the pages that are a member's or an admin's own (sign-in, account, admin): robots.txt
 * disallows them, their HTML says noindex, the sitemap lists none. Every other page path is public.
 */
export const UNLISTED_PATH_PREFIXES = [
  '/api/',
  '/simple-auth',
  '/verify-email',
  '/auth',
  '/set-password',
  '/forgot-password',
  '/reset-password',
  '/account/',
  '/admin',
  '/live-monitor',
  '/user-management',
  '/forum-moderation',
  '/vip-admin',
  '/vip/track-history',
  '/shop-admin',
  '/members',
  '/manual-users',
  '/sync',
  '/bulk-import',
  '/storage-setup',
  '/analytics',
  '/newsletter/',
] as const;

export function isUnlistedPath(pathname: string): boolean {
  return UNLISTED_PATH_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}

/** A route path (`:param` segments allowed) as a test of a request's path; one trailing slash is allowed. */
export function pagePathPattern(route: string): RegExp {
  return new RegExp('^' + route.replace(/:[a-zA-Z]+/g, '[^/]+').replace(/\//g, '\\/') + '\\/?$');
}

// Built on first use: the web app's first load imports this module for POP_OUT_PATHS only.
let patterns: RegExp[] | undefined;

export function isPagePath(pathname: string): boolean {
  patterns ??= PAGE_PATHS.map(pagePathPattern);
  return patterns.some((re) => re.test(pathname));
}

/**
 * The API reads a page makes as it starts, exactly as the web app requests them, by route path ('*':
 * every page in the site's layout, which POP_OUT_PATHS are not). The page's HTML asks for them at once (`<link rel="preload" as="fetch">`, sent by
 * src/server/plugins/web.ts), so their answers are in by the time the page's code has loaded
 * (docs/decisions/0022-first-load-of-gated-and-data-pages.md). tests/e2e/first-load.test.ts checks the
 * app uses each one.
 */
export const PAGE_START_READS: Readonly<Record<string, readonly string[]>> = {
  // The top bar's account menu and every gate (not the pop-out players: they have no top bar).
  '*': ['/api/user/permissions'],
  '/dhr1': ['/api/channels'],
  '/dhr2': ['/api/channels'],
  '/vip': ['/api/vip-mixes'],
  '/shop': ['/api/shop/products', '/api/site-config'],
  '/forum': ['/api/rss/latest', '/api/crawler/all', '/api/forum/posts?category=all'],
};

/** The pop-out player windows: their own layout, without the site's top bar (app-routes.tsx). */
export const POP_OUT_PATHS = ['/player', '/player/:channel'] as const;
