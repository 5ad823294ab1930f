import { MEMBER_BUCKETS, type MemberBucket } from '../../../../contracts/tier-policy';
import { SUBSCRIPTION_STATUSES, TIERS, type SubscriptionStatus, type Tier } from '../../../../contracts/tiers';

/**
 * The members list's filters, as GET /api/admin/users and the User Management page's URL take them.
 * `tier` and `status` are what the member's row stores; `access`, `effectiveTier` and `pledgeBand`
 * are the dashboard's figures (the server counts them with the same SQL), so a card links to its members.
 */
export interface MemberListFilters {
  search: string;
  tier: Tier | '';
  status: SubscriptionStatus | '';
  access: MemberBucket | '';
  effectiveTier: Tier | '';
  pledgeBand: Tier | '';
}

export const NO_MEMBER_FILTERS: MemberListFilters = { search: '', tier: '', status: '', access: '', effectiveTier: '', pledgeBand: '' };

const KEYS = Object.keys(NO_MEMBER_FILTERS) as (keyof MemberListFilters)[];

function oneOf<T extends string>(list: readonly T[], value: string | null): T | '' {
  return value !== null && (list as readonly string[]).includes(value) ? (value as T) : '';
}

/** The filters a URL's query names; unknown values are left out. */
export function readMemberFilters(params: URLSearchParams): MemberListFilters {
  return {
    search: params.get('search') ?? '',
    tier: oneOf(TIERS, params.get('tier')),
    status: oneOf(SUBSCRIPTION_STATUSES, params.get('status')),
    access: oneOf(MEMBER_BUCKETS, params.get('access')),
    effectiveTier: oneOf(TIERS, params.get('effectiveTier')),
    pledgeBand: oneOf(TIERS, params.get('pledgeBand')),
  };
}

/** The filters that are set, as query parameters (added to `into`). */
export function memberFilterParams(f: Partial<MemberListFilters>, into: URLSearchParams = new URLSearchParams()): URLSearchParams {
  for (const key of KEYS) {
    const value = key === 'search' ? f.search?.trim() : f[key];
    if (value) into.set(key, value);
  }
  return into;
}

/** User Management listing exactly these members. */
export function membersLink(f: Partial<MemberListFilters>): string {
  const query = memberFilterParams(f).toString();
  return `/user-management${query ? `?${query}` : ''}`;
}
