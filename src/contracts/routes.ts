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
] as const;

const patterns = PAGE_PATHS.map(
  (p) => new RegExp('^' + p.replace(/:[a-zA-Z]+/g, '[^/]+').replace(/\//g, '\\/') + '\\/?$'),
);

export function isPagePath(pathname: string): boolean {
  return patterns.some((re) => re.test(pathname));
}
