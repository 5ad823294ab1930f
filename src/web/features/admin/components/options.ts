import { MEMBER_BUCKETS, type MemberBucket } from '../../../../contracts/tier-policy';
import { tierLabel } from '../../../../contracts/tier-table';
import { SUBSCRIPTION_SOURCES, SUBSCRIPTION_STATUSES, TIERS, type SubscriptionStatus } from '../../../../contracts/tiers';
import type { Option } from '../../../components/ui/form-controls';

export const STATUS_LABEL: Record<SubscriptionStatus, string> = {
  active: 'Active',
  inactive: 'Inactive',
  cancelled: 'Cancelled',
  cancelled_with_access: 'Cancelled w/ Access',
  expired: 'Expired',
};

export const SOURCE_LABEL = { admin: 'Admin', patreon: 'Patreon', buymeacoffee: 'Buy Me a Coffee' } as const;

export const TIER_OPTIONS: Option[] = TIERS.map((t) => ({ value: t, label: tierLabel(t) }));
/** The admin forms offer active, inactive and cancelled. */
export const FORM_STATUS_OPTIONS: Option[] = (['active', 'inactive', 'cancelled'] as const).map((s) => ({ value: s, label: STATUS_LABEL[s] }));
/** The edit form offers every status, so saving a synced member does not silently change theirs. */
export const ALL_STATUS_OPTIONS: Option[] = SUBSCRIPTION_STATUSES.map((s) => ({ value: s, label: STATUS_LABEL[s] }));
export const SOURCE_OPTIONS: Option[] = SUBSCRIPTION_SOURCES.map((s) => ({ value: s, label: SOURCE_LABEL[s] }));
/** The dashboard's member buckets (tier-policy's memberBucket), with the dashboard's words. */
export const ACCESS_LABEL: Record<MemberBucket, string> = {
  active: 'Active',
  cancelledWithAccess: 'Cancelled w/ access',
  expired: 'Expired',
  free: 'Free / never paid',
};
export const ACCESS_OPTIONS: Option[] = MEMBER_BUCKETS.map((b) => ({ value: b, label: ACCESS_LABEL[b] }));
