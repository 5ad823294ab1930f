// The auth feature's public surface: other features import only from here.
export { RouteGuard, type RouteGuardProps } from './components/route-guard';
export { SubscriptionGate, type SubscriptionGateProps } from './components/subscription-gate';
export { MemberButton, ProfileDialog } from './components/member-menu';
export { LegacySignInDialog } from './components/legacy-sign-in-dialog';
export { normalizeRequiredTier, hasTierAccess } from './lib/tier-access';
export { useMe, meQueryOptions, getMe, ME_QUERY_KEY } from './api/get-me';
export { usePermissions, permissionsQueryOptions, getPermissions, PERMISSIONS_QUERY_KEY } from './api/get-permissions';
export { useSiteConfig, siteConfigQueryOptions } from './api/get-site-config';
export { useSignOut } from './api/logout';
export { useAdminSignIn, adminSignIn } from './api/admin-sign-in';
export { useSetupNeeded, setupNeededQueryOptions } from './api/get-setup-needed';
