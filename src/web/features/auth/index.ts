// The auth feature's public surface: other features import only from here.
export { AccessGate } from './components/access-gate';
export { TierBenefits } from './components/membership-status';
export { UPGRADE_APPLIES_AT_ONCE, UpgradeOptions } from './components/upgrade-options';
export { useSignOut } from './api/logout';
export { grantedBenefits, grantedTier, hasTierAccess } from './lib/tier-access';
export { PERMISSIONS_QUERY_KEY, usePermissions } from './api/get-permissions';
export { useSiteConfig } from './api/get-site-config';
export { useFragmentToken } from './lib/fragment-token';
