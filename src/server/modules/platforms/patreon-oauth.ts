import { PATREON_RETURN_PAGE, PATREON_SCOPES } from '../../../contracts/supporters';
import type { Config } from '../../config';
import { FetchError, serviceJson } from '../../lib/outbound-http';
import { parsePatreonMember, PATREON_LABEL, type PlatformRecordInput } from './clients';
import { getJson, PlatformError, type FetchOptions } from './http';

/**
 * Connect Patreon: Patreon's OAuth (authorize → code → token) and the identity call with the member's
 * memberships, in the shapes Patreon documents. Every URL starts at PATREON_API_URL, so tests point it
 * at a loopback stand-in.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const TOKEN_TIMEOUT_MS = 15_000;
const IDENTITY_FIELDS = {
  include: 'memberships,memberships.campaign',
  'fields[user]': 'email,full_name,is_email_verified',
  'fields[member]': 'patron_status,currently_entitled_amount_cents,next_charge_date,last_charge_date,last_charge_status',
};

export function patreonOAuthConfigured(config: Config): boolean {
  return Boolean(config.PATREON_CLIENT_ID && config.PATREON_CLIENT_SECRET);
}

const base = (config: Config) => config.PATREON_API_URL.replace(/\/+$/, '');
const redirectUri = (config: Config) => `${config.PUBLIC_URL}${PATREON_RETURN_PAGE}`;

/** Where the member's browser goes to consent. */
export function patreonAuthorizeUrl(config: Config, state: string): string {
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: config.PATREON_CLIENT_ID ?? '',
    redirect_uri: redirectUri(config),
    scope: PATREON_SCOPES,
    state,
  });
  return `${base(config)}/oauth2/authorize?${params.toString()}`;
}

/** Exchanges the code for an access token (POST form, as Patreon documents). */
export async function exchangePatreonCode(config: Config, code: string): Promise<string> {
  const body = new URLSearchParams({
    code,
    grant_type: 'authorization_code',
    client_id: config.PATREON_CLIENT_ID ?? '',
    client_secret: config.PATREON_CLIENT_SECRET ?? '',
    redirect_uri: redirectUri(config),
  });
  let doc: unknown;
  try {
    doc = await serviceJson(`${base(config)}/api/oauth2/token`, { method: 'POST', body, timeoutMs: TOKEN_TIMEOUT_MS });
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    if (err.code === 'http' && err.status !== undefined) {
      throw new PlatformError(PATREON_LABEL, `token exchange refused: ${err.status} (check PATREON_CLIENT_ID and PATREON_CLIENT_SECRET)`, err.status);
    }
    if (err.code === 'not_json') throw new PlatformError(PATREON_LABEL, 'token reply is not JSON', err.status);
    throw new PlatformError(PATREON_LABEL, err.code === 'network' ? `token exchange ${err.message}` : `token exchange unreachable (${err.message})`);
  }
  if (!isObj(doc) || typeof doc.access_token !== 'string' || !doc.access_token) throw new PlatformError(PATREON_LABEL, 'token reply has no access_token');
  return doc.access_token;
}

export interface PatreonIdentity {
  /** Patreon's user id: what the account is linked by. */
  userId: string;
  email: string | null;
  /** The member's membership of this campaign as a platform record, or null when they have none. */
  membership: PlatformRecordInput | null;
}

/**
 * Reads the identity with its memberships. The membership of PATREON_CAMPAIGN_ID counts (with no
 * campaign configured, the first one); it becomes a platform record under the Patreon email.
 */
export async function fetchPatreonIdentity(config: Config, accessToken: string, opts: FetchOptions = {}): Promise<PatreonIdentity> {
  const url = `${base(config)}/api/oauth2/v2/identity?${new URLSearchParams(IDENTITY_FIELDS).toString()}`;
  const doc = await getJson(PATREON_LABEL, url, accessToken, 'the member token', { retries: 1, ...opts });
  if (!isObj(doc) || !isObj(doc.data) || (typeof doc.data.id !== 'string' && typeof doc.data.id !== 'number')) {
    throw new PlatformError(PATREON_LABEL, 'identity reply has no user');
  }
  const userId = String(doc.data.id).slice(0, 100);
  const attrs = isObj(doc.data.attributes) ? doc.data.attributes : {};
  const email = typeof attrs.email === 'string' ? attrs.email : null;
  const included = Array.isArray(doc.included) ? doc.included.filter(isObj) : [];
  const campaignOf = (m: Obj) => {
    const rel = isObj(m.relationships) && isObj(m.relationships.campaign) && isObj(m.relationships.campaign.data) ? m.relationships.campaign.data : {};
    return typeof rel.id === 'string' || typeof rel.id === 'number' ? String(rel.id) : null;
  };
  const memberships = included.filter((i) => i.type === 'member');
  const mine = config.PATREON_CAMPAIGN_ID ? memberships.find((m) => campaignOf(m) === config.PATREON_CAMPAIGN_ID) : memberships[0];
  const membership = mine
    ? parsePatreonMember({
        id: mine.id,
        // The identity call asks no email of the member resource: the user's email stands for it.
        attributes: { email, full_name: attrs.full_name, ...(isObj(mine.attributes) ? mine.attributes : {}) },
        relationships: { user: { data: { id: userId, type: 'user' } } },
      })
    : null;
  return { userId, email, membership };
}
