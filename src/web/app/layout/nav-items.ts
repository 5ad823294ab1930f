/** The top bar's links; the admin link is added for admins only. Their pages' routes are in app-routes.tsx. */
export const NAV_ITEMS = [
  { to: '/', label: 'Home' },
  { to: '/dhr1', label: 'DHR1' },
  { to: '/dhr2', label: 'DHR2' },
  { to: '/vip', label: 'VIP' },
  { to: '/forum', label: 'Forum' },
  { to: '/upload', label: 'Upload' },
  { to: '/shop', label: 'Shop' },
] as const;

export const ADMIN_NAV_ITEM = { to: '/admin-dashboard', label: 'Admin' } as const;
