import type { Tier } from './tiers';

/**
 * Who may use a route or see a page (docs/decisions/0003-one-access-policy.md). The server's
 * routes declare it in `config.access`; the web's AccessGate takes the same values. Zod-free so
 * the web bundle can import it.
 */
export type AccessPolicy =
  | { kind: 'public' }
  | { kind: 'member' }
  | { kind: 'tier'; tier: Tier }
  | { kind: 'admin' }
  /** An admin session, or `Authorization: Bearer <token>` with the token of that config variable (machines). */
  | { kind: 'admin'; bearer: BearerTokenVar }
  /**
   * A VIP mix's bytes: the session cookie, a link token issued to that session for this mix and
   * purpose, and the tier that purpose needs now (server/lib/media-links.ts).
   */
  | { kind: 'mediaLink'; purpose: 'stream' | 'download' };

/** Config variables that hold a bearer token a route may accept in place of an admin session. */
export type BearerTokenVar = 'METRICS_TOKEN';

export const access = {
  public: { kind: 'public' },
  member: { kind: 'member' },
  admin: { kind: 'admin' },
  tier: (tier: Tier): AccessPolicy => ({ kind: 'tier', tier }),
  adminOrBearer: (bearer: BearerTokenVar): AccessPolicy => ({ kind: 'admin', bearer }),
  mediaLink: (purpose: 'stream' | 'download'): AccessPolicy => ({ kind: 'mediaLink', purpose }),
} as const satisfies Record<
  string,
  AccessPolicy | ((t: Tier) => AccessPolicy) | ((b: BearerTokenVar) => AccessPolicy) | ((p: 'stream' | 'download') => AccessPolicy)
>;

/** What a thing that requires `tier` asks of a visitor: nothing for free, else that tier. */
export function accessForTier(tier: Tier): AccessPolicy {
  return tier === 'free' ? access.public : access.tier(tier);
}
