import { createBrowserRouter } from 'react-router';
import { RouteGuard } from '../features/auth';
import { BareLayout } from './layout/bare-layout';
import { RootLayout } from './layout/root-layout';
import { lazyPage } from './lazy-page';
import { RouteErrorPage } from './pages/route-error-page';
import { sectionPage } from './pages/section-page';

/**
 * Every path of src/contracts/routes.ts PAGE_PATHS, one route per line. A feature plugs its page in
 * by replacing its line's element with `lazyPage(() => import('../features/<domain>/pages/<name>-page'))`
 * (the page module default-exports the component). `sectionPage(path)` marks a page not built yet.
 */
export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/', element: lazyPage(() => import('../features/home/pages/home-page')) },
      // Accounts (features/auth)
      { path: '/simple-auth', element: lazyPage(() => import('../features/auth/pages/simple-auth-page')) },
      { path: '/simple-auth/link', element: lazyPage(() => import('../features/auth/pages/sign-in-link-page')) },
      { path: '/verify-email', element: lazyPage(() => import('../features/auth/pages/verify-email-page')) },
      { path: '/auth', element: lazyPage(() => import('../features/auth/pages/auth-page')) },
      { path: '/set-password', element: lazyPage(() => import('../features/auth/pages/set-password-page')) },
      { path: '/forgot-password', element: lazyPage(() => import('../features/auth/pages/forgot-password-page')) },
      { path: '/reset-password', element: lazyPage(() => import('../features/auth/pages/reset-password-page')) },
      { path: '/admin-setup', element: lazyPage(() => import('../features/auth/pages/admin-setup-page')) },
      // Radio and tracks (features/radio)
      { path: '/dhr1', element: lazyPage(() => import('../features/radio/pages/dhr1-page')) },
      { path: '/dhr2', element: lazyPage(() => import('../features/radio/pages/dhr2-page')) },
      { path: '/track-ident', element: lazyPage(() => import('../features/tracks/pages/track-ident-page')) },
      { path: '/birdy', element: lazyPage(() => import('../features/tracks/pages/birdy-page')) },
      { path: '/admin/track-history', element: lazyPage(() => import('../features/tracks/pages/admin-track-history-page')) },
      { path: '/vip/track-history', element: lazyPage(() => import('../features/tracks/pages/vip-track-history-page')) },
      { path: '/track-history', element: lazyPage(() => import('../features/tracks/pages/vip-track-history-page')) },
      // VIP, community, shop
      { path: '/vip', element: sectionPage('/vip') },
      { path: '/forum', element: sectionPage('/forum') },
      { path: '/upload', element: sectionPage('/upload') },
      { path: '/shop', element: sectionPage('/shop') },
      // Admin (features/admin)
      { path: '/admin', element: lazyPage(() => import('../features/admin/pages/admin-dashboard-page')) },
      { path: '/admin-dashboard', element: lazyPage(() => import('../features/admin/pages/admin-dashboard-page')) },
      { path: '/members', element: lazyPage(() => import('../features/admin/pages/admin-dashboard-page')) },
      { path: '/manual-users', element: lazyPage(() => import('../features/admin/pages/admin-dashboard-page')) },
      { path: '/sync', element: lazyPage(() => import('../features/admin/pages/admin-dashboard-page')) },
      { path: '/bulk-import', element: lazyPage(() => import('../features/admin/pages/admin-dashboard-page')) },
      { path: '/storage-setup', element: lazyPage(() => import('../features/admin/pages/admin-dashboard-page')) },
      { path: '/analytics', element: lazyPage(() => import('../features/admin/pages/admin-dashboard-page')) },
      { path: '/admin-settings', element: lazyPage(() => import('../features/admin/pages/admin-dashboard-page')) },
      { path: '/user-management', element: lazyPage(() => import('../features/admin/pages/user-management-page')) },
      { path: '/live-monitor', element: <RouteGuard requireAdmin>{sectionPage('/live-monitor')}</RouteGuard> },
      { path: '/forum-moderation', element: <RouteGuard requireAdmin>{sectionPage('/forum-moderation')}</RouteGuard> },
      { path: '/vip-admin', element: <RouteGuard requireAdmin>{sectionPage('/vip-admin')}</RouteGuard> },
      { path: '/shop-admin', element: <RouteGuard requireAdmin>{sectionPage('/shop-admin')}</RouteGuard> },
      { path: '*', element: lazyPage(() => import('./pages/not-found-page')) },
    ],
  },
  {
    // Pop-out player windows: no site chrome.
    element: <BareLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/player', element: lazyPage(() => import('../features/radio/pages/player-page')) },
      { path: '/player/:channel', element: lazyPage(() => import('../features/radio/pages/player-page')) },
    ],
  },
]);
