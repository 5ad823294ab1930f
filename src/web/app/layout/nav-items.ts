import { tierLabel } from '../../../contracts/tier-table';

/** The top bar's links; the admin link is added for admins only. Their pages' routes are in app-routes.tsx. */
export const NAV_ITEMS = [
  { to: '/', label: 'Home' },
  { to: '/dhr1', label: tierLabel('dhr1') },
  { to: '/dhr2', label: tierLabel('dhr2') },
  { to: '/vip', label: tierLabel('vip') },
  { to: '/forum', label: 'Forum' },
  { to: '/upload', label: 'Upload' },
  { to: '/shop', label: 'Shop' },
] as const;

export const ADMIN_NAV_ITEM = { to: '/admin-dashboard', label: 'Admin' } as const;

/** One link of the top bar and the phone menu. */
export interface NavItem {
  to: string;
  label: string;
}
