// The auth feature's public surface: other features import only from here.
export { AccessGate, type AccessGateProps } from './components/access-gate';
export { TierBenefits } from './components/membership-status';
export { UpgradeOptions } from './components/upgrade-options';
export { MemberButton, ProfileDialog } from './components/member-menu';
export { LegacySignInDialog } from './components/legacy-sign-in-dialog';
export { hasTierAccess } from './lib/tier-access';
export { usePermissions, permissionsQueryOptions, getPermissions, PERMISSIONS_QUERY_KEY } from './api/get-permissions';
export { useSiteConfig, siteConfigQueryOptions } from './api/get-site-config';
export { useSignOut } from './api/logout';
export { useAdminSignIn, adminSignIn } from './api/admin-sign-in';
export { useSetupNeeded, setupNeededQueryOptions } from './api/get-setup-needed';
