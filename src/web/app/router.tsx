import { type RouteObject, useRoutes } from 'react-router';
import HomePage from '../features/home/pages/home-page';
import { BareLayout } from './layout/bare-layout';
import { RootLayout } from './layout/root-layout';
import { lazyPage } from './lazy-page';

/**
 * Every path of src/contracts/routes.ts PAGE_PATHS, one route per line:
 * `lazyPage(() => import('../features/<domain>/pages/<name>-page'))` (the page module default-exports
 * the component).
 */
const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      // The home page is in the first load: no spinner-to-page shift on the most visited page.
      { path: '/', element: <HomePage /> },
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
      // Radio, channel pages and tracks (features/radio, features/channels, features/tracks)
      { path: '/dhr1', element: lazyPage(() => import('../features/channels/pages/channel-page')) },
      { path: '/dhr2', element: lazyPage(() => import('../features/channels/pages/channel-page')) },
      { path: '/track-ident', element: lazyPage(() => import('../features/tracks/pages/track-ident-page')) },
      { path: '/birdy', element: lazyPage(() => import('../features/tracks/pages/birdy-page')) },
      { path: '/admin/track-history', element: lazyPage(() => import('../features/tracks/pages/admin-track-history-page')) },
      { path: '/vip/track-history', element: lazyPage(() => import('../features/tracks/pages/vip-track-history-page')) },
      { path: '/track-history', element: lazyPage(() => import('../features/tracks/pages/vip-track-history-page')) },
      // VIP, community, shop
      { path: '/vip', element: lazyPage(() => import('../features/vip/pages/vip-page')) },
      { path: '/forum', element: lazyPage(() => import('../features/news/pages/forum-page')) },
      { path: '/upload', element: lazyPage(() => import('../features/submissions/pages/upload-page')) },
      { path: '/shop', element: lazyPage(() => import('../features/shop/pages/shop-page')) },
      { path: '/newsletter/confirm', element: lazyPage(() => import('../features/shop/pages/newsletter-page')) },
      { path: '/newsletter/unsubscribe', element: lazyPage(() => import('../features/shop/pages/newsletter-page')) },
      // Admin (features/admin)
      { path: '/admin', element: lazyPage(() => import('../features/admin/pages/admin-dashboard-page')) },
      { path: '/admin-dashboard', element: lazyPage(() => import('../features/admin/pages/admin-dashboard-page')) },
      { path: '/members', element: lazyPage(() => import('../features/admin/pages/admin-dashboard-page')) },
      { path: '/manual-users', element: lazyPage(() => import('../features/admin/pages/admin-dashboard-page')) },
      { path: '/sync', element: lazyPage(() => import('../features/admin/pages/admin-dashboard-page')) },
      { path: '/bulk-import', element: lazyPage(() => import('../features/admin/pages/admin-dashboard-page')) },
      { path: '/storage-setup', element: lazyPage(() => import('../features/vip/pages/storage-setup-page')) },
      { path: '/analytics', element: lazyPage(() => import('../features/admin/pages/admin-dashboard-page')) },
      { path: '/admin-settings', element: lazyPage(() => import('../features/admin/pages/admin-dashboard-page')) },
      { path: '/user-management', element: lazyPage(() => import('../features/admin/pages/user-management-page')) },
      { path: '/admin/supporters', element: lazyPage(() => import('../features/admin/pages/supporters-page')) },
      { path: '/admin/news-sources', element: lazyPage(() => import('../features/news/pages/news-sources-page')) },
      { path: '/live-monitor', element: lazyPage(() => import('../features/live/pages/live-monitor-page')) },
      { path: '/admin/submissions', element: lazyPage(() => import('../features/submissions/pages/submissions-admin-page')) },
      { path: '/forum-moderation', element: lazyPage(() => import('../features/community/pages/forum-moderation-page')) },
      { path: '/admin/contact', element: lazyPage(() => import('../features/community/pages/contact-inbox-page')) },
      { path: '/vip-admin', element: lazyPage(() => import('../features/vip/pages/vip-admin-page')) },
      { path: '/shop-admin', element: lazyPage(() => import('../features/shop/pages/shop-admin-page')) },
      { path: '*', element: lazyPage(() => import('./pages/not-found-page')) },
    ],
  },
  {
    // Pop-out player windows: no site chrome.
    element: <BareLayout />,
    children: [
      { path: '/player', element: lazyPage(() => import('../features/radio/pages/player-page')) },
      { path: '/player/:channel', element: lazyPage(() => import('../features/radio/pages/player-page')) },
    ],
  },
];

/**
 * The app's routes in React Router's declarative mode: the pages load their own data with TanStack
 * Query, so the data router (loaders, actions, fetchers) would be weight on every first load.
 */
export function AppRoutes() {
  return useRoutes(routes);
}
