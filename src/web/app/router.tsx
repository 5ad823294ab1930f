import { type RouteObject, useRoutes } from 'react-router';
import { lazyPage } from './lazy-page';

// Pages reached by several paths: one lazy component each, so the bundle lists their chunks once and
// moving between those paths, once the page has loaded, shows no spinner.
const trackHistoryPage = lazyPage(() => import('../features/tracks/pages/vip-track-history-page'));
const newsletterPage = lazyPage(() => import('../features/shop/pages/newsletter-page'));
const adminDashboardPage = lazyPage(() => import('../features/admin/pages/admin-dashboard-page'));
// A news article, a thread and a profile have their own address (and title for crawlers, written by the
// server); the app shows them on the forum page, where the news, the threads and the members' names are.
const forumPage = lazyPage(() => import('../features/news/pages/forum-page'));

/**
 * The other paths of src/contracts/routes.ts PAGE_PATHS, one route per line:
 * `lazyPage(() => import('../features/<domain>/pages/<name>-page'))` (the page module default-exports
 * the component). app-routes.tsx holds the home page, the pages of the top bar's links and the pop-out
 * players, and loads this table on the first visit to any other path, so it is no weight on the home
 * page's first load. A new page goes here unless it joins the top bar.
 */
const routes: RouteObject[] = [
  // Accounts (features/auth)
  { path: '/simple-auth', element: lazyPage(() => import('../features/auth/pages/simple-auth-page')) },
  { path: '/simple-auth/link', element: lazyPage(() => import('../features/auth/pages/sign-in-link-page')) },
  { path: '/verify-email', element: lazyPage(() => import('../features/auth/pages/verify-email-page')) },
  { path: '/auth', element: lazyPage(() => import('../features/auth/pages/auth-page')) },
  { path: '/auth/patreon', element: lazyPage(() => import('../features/auth/pages/patreon-return-page')) },
  { path: '/set-password', element: lazyPage(() => import('../features/auth/pages/set-password-page')) },
  { path: '/forgot-password', element: lazyPage(() => import('../features/auth/pages/forgot-password-page')) },
  { path: '/reset-password', element: lazyPage(() => import('../features/auth/pages/reset-password-page')) },
  { path: '/admin-setup', element: lazyPage(() => import('../features/auth/pages/admin-setup-page')) },
  { path: '/account/delete', element: lazyPage(() => import('../features/auth/pages/account-delete-page')) },
  { path: '/account/email', element: lazyPage(() => import('../features/auth/pages/account-email-page')) },
  // Privacy (features/home)
  { path: '/privacy', element: lazyPage(() => import('../features/home/pages/privacy-page')) },
  // Tracks (features/tracks; the channel pages are in app-routes.tsx)
  { path: '/track-ident', element: lazyPage(() => import('../features/tracks/pages/track-ident-page')) },
  { path: '/birdy', element: lazyPage(() => import('../features/tracks/pages/birdy-page')) },
  { path: '/admin/track-history', element: lazyPage(() => import('../features/tracks/pages/admin-track-history-page')) },
  { path: '/vip/track-history', element: trackHistoryPage },
  { path: '/track-history', element: trackHistoryPage },
  // Shop (the shop, VIP, forum and upload pages are in app-routes.tsx)
  { path: '/newsletter/confirm', element: newsletterPage },
  { path: '/newsletter/unsubscribe', element: newsletterPage },
  // Admin (features/admin)
  { path: '/admin', element: adminDashboardPage },
  { path: '/admin-dashboard', element: adminDashboardPage },
  { path: '/members', element: adminDashboardPage },
  { path: '/manual-users', element: adminDashboardPage },
  { path: '/sync', element: adminDashboardPage },
  { path: '/bulk-import', element: adminDashboardPage },
  { path: '/storage-setup', element: lazyPage(() => import('../features/vip/pages/storage-setup-page')) },
  { path: '/analytics', element: lazyPage(() => import('../features/analytics/pages/analytics-page')) },
  { path: '/admin-settings', element: adminDashboardPage },
  { path: '/user-management', element: lazyPage(() => import('../features/admin/pages/user-management-page')) },
  { path: '/admin/supporters', element: lazyPage(() => import('../features/admin/pages/supporters-page')) },
  { path: '/admin/news-sources', element: lazyPage(() => import('../features/news/pages/news-sources-page')) },
  { path: '/live-monitor', element: lazyPage(() => import('../features/visitors/pages/live-monitor-page')) },
  { path: '/admin/submissions', element: lazyPage(() => import('../features/submissions/pages/submissions-admin-page')) },
  { path: '/forum-moderation', element: lazyPage(() => import('../features/community/pages/forum-moderation-page')) },
  { path: '/admin/contact', element: lazyPage(() => import('../features/community/pages/contact-inbox-page')) },
  { path: '/vip-admin', element: lazyPage(() => import('../features/vip/pages/vip-admin-page')) },
  { path: '/shop-admin', element: lazyPage(() => import('../features/shop/pages/shop-admin-page')) },
  { path: '/news', element: forumPage },
  { path: '/news/:id', element: forumPage },
  { path: '/forum/:id', element: forumPage },
  { path: '/profile/:id', element: lazyPage(() => import('../features/community/pages/profile-page')) },
  { path: '*', element: lazyPage(() => import('./pages/not-found-page')) },
];

/** The page table under the site's layout (app-routes.tsx renders it for every path but `/`). */
export default function PageRoutes() {
  return useRoutes(routes);
}
