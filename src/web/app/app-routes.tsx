import { type RouteObject, useRoutes } from 'react-router';
import HomePage from '../features/home/pages/home-page';
import { BareLayout } from './layout/bare-layout';
import { RootLayout } from './layout/root-layout';
import { lazyPage } from './lazy-page';

const playerPage = lazyPage(() => import('../features/radio/pages/player-page'));

/**
 * The routes the first load knows: the home page (in the entry chunk: no spinner-to-page shift on the
 * most visited page), the pop-out players (their own layout) and, for every other path, the page table
 * of router.tsx. That table, with the bundler's list of chunks for each of its pages, loads with the
 * first page that needs it, so it is no weight on `/` (docs/decisions/0010-web-gate-and-first-load.md).
 */
const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '*', element: lazyPage(() => import('./router')) },
    ],
  },
  {
    // Pop-out player windows: no site chrome.
    element: <BareLayout />,
    children: [
      { path: '/player', element: playerPage },
      { path: '/player/:channel', element: playerPage },
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
