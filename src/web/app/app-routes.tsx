import { type RouteObject, useRoutes } from 'react-router';
import { POP_OUT_PATHS } from '../../contracts/routes';
import HomePage from '../features/home/pages/home-page';
import { BareLayout } from './layout/bare-layout';
import { RootLayout } from './layout/root-layout';
import { lazyPage } from './lazy-page';

const channelPage = lazyPage(() => import('../features/channels/pages/channel-page'));
// The pop-out players come with their channel's chat (the chat feature wraps radio's player page).
const playerPage = lazyPage(() => import('../features/chat/pages/pop-out-page'));

/**
 * The routes the first load knows: the home page (in the entry chunk: no spinner-to-page shift on the
 * most visited page), the pages of the top bar's links (nav-items.ts: one step from any page, so their
 * chunks start loading at once), the pop-out players (their own layout) and, for every other path, the
 * page table of router.tsx. That table, with the bundler's list of chunks for each of its pages, loads
 * with the first page that needs it, so it is no weight on `/` (docs/decisions/0010-web-gate-and-first-load.md).
 */
const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/dhr1', element: channelPage },
      { path: '/dhr2', element: channelPage },
      { path: '/vip', element: lazyPage(() => import('../features/vip/pages/vip-page')) },
      { path: '/forum', element: lazyPage(() => import('../features/news/pages/forum-page')) },
      { path: '/upload', element: lazyPage(() => import('../features/submissions/pages/upload-page')) },
      { path: '/shop', element: lazyPage(() => import('../features/shop/pages/shop-page')) },
      { path: '*', element: lazyPage(() => import('./router')) },
    ],
  },
  {
    // Pop-out player windows: no site chrome.
    element: <BareLayout />,
    children: [...POP_OUT_PATHS.map((path) => ({ path, element: playerPage }))],
  },
];

/**
 * The app's routes in React Router's declarative mode: the pages load their own data with TanStack
 * Query, so the data router (loaders, actions, fetchers) would be weight on every first load.
 */
export function AppRoutes() {
  return useRoutes(routes);
}
