import type { NewPlatformSubscriptionRow } from '../../db/schema';
import { DEFAULT_FETCH_OPTIONS, getJson, PlatformError, type FetchOptions } from './http';
import { bmcAmountCents, parseFlag, parsePlatformDate, payerEmail } from './mapping';

export const PATREON_LABEL = 'Patreon';
export const BMC_LABEL = 'Buy Me a Coffee';
export const PLATFORM_LABELS = { patreon: PATREON_LABEL, buymeacoffee: BMC_LABEL } as const;

const PATREON_MEMBER_FIELDS = 'email,full_name,patron_status,currently_entitled_amount_cents,next_charge_date,last_charge_date,last_charge_status';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v.slice(0, 500) : typeof v === 'number' ? String(v) : null);

/** One platform record ready for platform_subscriptions (lastEvent is set by the caller). */
export type PlatformRecordInput = Omit<NewPlatformSubscriptionRow, 'lastEvent' | 'updatedAt'>;

/** A Patreon JSON:API member resource → record; null when it carries no usable email. */
export function parsePatreonMember(member: unknown): PlatformRecordInput | null {
  if (!isObj(member)) return null;
  const a = isObj(member.attributes) ? member.attributes : {};
  const email = payerEmail(a.email);
  if (!email) return null;
  const amount = typeof a.currently_entitled_amount_cents === 'number' ? a.currently_entitled_amount_cents : Number(a.currently_entitled_amount_cents ?? 0);
  const relationships = isObj(member.relationships) ? member.relationships : {};
  const user = isObj(relationships.user) && isObj(relationships.user.data) ? relationships.user.data : {};
  return {
    platform: 'patreon',
    email,
    externalId: str(member.id),
    platformUserId: str(user.id),
    fullName: str(a.full_name),
    platformStatus: str(a.patron_status),
    amountCents: Number.isFinite(amount) && amount > 0 ? Math.round(amount) : 0,
    lastChargeAt: parsePlatformDate(a.last_charge_date),
    nextChargeAt: parsePlatformDate(a.next_charge_date),
    lastChargeStatus: str(a.last_charge_status),
    periodEndAt: null,
    isCancelled: false,
    cancelledAtPeriodEnd: false,
    cancelledAt: null,
    raw: { id: member.id ?? null, attributes: a },
  };
}

/**
 * A Buy Me a Coffee subscription (API v1 shape: payer_email, subscription_*) or a webhook's membership
 * data (supporter_email, amount, current_period_end, cancel_at_period_end, status) → record.
 */
export function parseBmcSubscription(sub: unknown): PlatformRecordInput | null {
  if (!isObj(sub)) return null;
  const email = payerEmail(sub.payer_email ?? sub.supporter_email ?? sub.email);
  if (!email) return null;
  const apiShape = 'subscription_coffee_price' in sub || 'subscription_current_period_end' in sub;
  const amountCents = apiShape
    ? bmcAmountCents(sub.subscription_coffee_price, sub.subscription_coffee_num)
    : bmcAmountCents(sub.amount ?? sub.support_coffee_price, sub.quantity ?? sub.support_coffees ?? 1);
  const periodEndAt = parsePlatformDate(apiShape ? sub.subscription_current_period_end : sub.current_period_end);
  const statusText = str(sub.status)?.toLowerCase();
  const isCancelled = apiShape
    ? parseFlag(sub.subscription_is_cancelled)
    : parseFlag(sub.canceled) || parseFlag(sub.cancelled) || statusText === 'canceled' || statusText === 'cancelled';
  const cancelledAtPeriodEnd = parseFlag(apiShape ? sub.subscription_is_cancelled_at_period_end : sub.cancel_at_period_end);
  return {
    platform: 'buymeacoffee',
    email,
    externalId: str(sub.subscription_id ?? sub.id),
    fullName: str(sub.payer_name ?? sub.supporter_name),
    platformStatus: isCancelled || cancelledAtPeriodEnd ? 'cancelled' : 'active',
    amountCents,
    lastChargeAt: null,
    nextChargeAt: null,
    lastChargeStatus: null,
    periodEndAt,
    isCancelled,
    cancelledAtPeriodEnd,
    cancelledAt: parsePlatformDate(apiShape ? sub.subscription_cancelled_on : (sub.canceled_at ?? sub.cancelled_at)),
    raw: sub,
  };
}

export interface PatreonClientConfig {
  apiUrl: string;
  accessToken: string;
  campaignId: string;
}

/** A listing that does not prove it is complete: the platform's failure, never an empty listing. */
const incomplete = (label: string, what: string) => new PlatformError(label, `incomplete listing: ${what}`);

/** The platform's own error words in a body (Patreon's `errors` array, Buy Me a Coffee's `error_code`/`reason`), or null. */
function errorBody(doc: Obj): string | null {
  if (Array.isArray(doc.errors) && doc.errors.length) {
    const first: unknown = doc.errors[0];
    const detail = isObj(first) ? str(first.detail ?? first.code_name ?? first.code) : null;
    return `error in reply${detail ? `: ${detail}` : ''}`;
  }
  if ('error_code' in doc || 'reason' in doc || 'error' in doc) {
    return `error ${str(doc.error_code) ?? ''} ${str(doc.reason) ?? str(doc.error) ?? ''}`.replace(/\s+/g, ' ').trim();
  }
  return null;
}

/**
 * Every member of the campaign, following meta.pagination.cursors.next. The listing counts only when
 * every page came back in the documented shape without errors, the cursors ran to their end and the
 * members add up to the total Patreon announced; anything else throws (the sync then changes nothing
 * of Patreon's members).
 */
export async function fetchPatreonMembers(c: PatreonClientConfig, opts: FetchOptions = {}): Promise<PlatformRecordInput[]> {
  const maxPages = opts.maxPages ?? DEFAULT_FETCH_OPTIONS.maxPages;
  const base = `${c.apiUrl.replace(/\/+$/, '')}/api/oauth2/v2/campaigns/${encodeURIComponent(c.campaignId)}/members`;
  const out: PlatformRecordInput[] = [];
  let listed = 0;
  let cursor: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const params = new URLSearchParams({ include: 'currently_entitled_tiers,user', 'fields[member]': PATREON_MEMBER_FIELDS });
    if (cursor) params.set('page[cursor]', cursor);
    const doc = await getJson(PATREON_LABEL, `${base}?${params.toString()}`, c.accessToken, 'PATREON_ACCESS_TOKEN', opts);
    if (!isObj(doc)) throw new PlatformError(PATREON_LABEL, 'reply is not an object');
    const error = errorBody(doc);
    if (error) throw new PlatformError(PATREON_LABEL, error);
    if (!Array.isArray(doc.data)) throw new PlatformError(PATREON_LABEL, 'reply has no data list');
    listed += doc.data.length;
    for (const m of doc.data) {
      const r = parsePatreonMember(m);
      if (r) out.push(r);
    }
    const meta = isObj(doc.meta) ? doc.meta : {};
    const pagination = isObj(meta.pagination) ? meta.pagination : null;
    if (!pagination) throw incomplete(PATREON_LABEL, 'a page has no pagination');
    const cursors = isObj(pagination.cursors) ? pagination.cursors : {};
    const next = typeof cursors.next === 'string' && cursors.next !== '' ? cursors.next : null;
    if (next === cursor && next !== null) throw incomplete(PATREON_LABEL, 'the next page cursor repeats');
    if (!next) {
      if (typeof pagination.total === 'number' && pagination.total !== listed) {
        throw incomplete(PATREON_LABEL, `${listed} members listed of the ${pagination.total} announced`);
      }
      return out;
    }
    cursor = next;
  }
  throw new PlatformError(PATREON_LABEL, `more than ${maxPages} pages; stopped`);
}

export interface BmcClientConfig {
  apiUrl: string;
  accessToken: string;
}

/**
 * Every subscription (status=all), page by page until next_page_url is null. The listing counts only
 * when every page is the documented page object and the subscriptions add up to its `total`. An
 * error body, whatever the HTTP status (Buy Me a Coffee answers `{"error_code":404,"reason":"No
 * subscriptions"}` when its side fails as well as when there are none), is a failure: a listing
 * that lost everyone must never end everyone's subscription.
 */
export async function fetchBmcSubscriptions(c: BmcClientConfig, opts: FetchOptions = {}): Promise<PlatformRecordInput[]> {
  const maxPages = opts.maxPages ?? DEFAULT_FETCH_OPTIONS.maxPages;
  const base = `${c.apiUrl.replace(/\/+$/, '')}/api/v1/subscriptions`;
  const out: PlatformRecordInput[] = [];
  let listed = 0;
  for (let page = 1; page <= maxPages; page++) {
    const doc = await getJson(BMC_LABEL, `${base}?status=all&page=${page}`, c.accessToken, 'BMC_ACCESS_TOKEN', opts);
    if (!isObj(doc)) throw new PlatformError(BMC_LABEL, 'reply is not an object');
    if (!Array.isArray(doc.data)) throw new PlatformError(BMC_LABEL, errorBody(doc) ?? 'reply has no data list');
    if (!('next_page_url' in doc)) throw incomplete(BMC_LABEL, 'a page has no next_page_url');
    if (doc.current_page !== undefined && Number(doc.current_page) !== page)
      throw incomplete(BMC_LABEL, `asked for page ${page}, got ${str(doc.current_page)}`);
    listed += doc.data.length;
    for (const s of doc.data) {
      const r = parseBmcSubscription(s);
      if (r) out.push(r);
    }
    if (doc.next_page_url === null || doc.next_page_url === '') {
      if (typeof doc.total === 'number' && doc.total !== listed) throw incomplete(BMC_LABEL, `${listed} subscriptions listed of the ${doc.total} announced`);
      return out;
    }
  }
  throw new PlatformError(BMC_LABEL, `more than ${maxPages} pages; stopped`);
}
