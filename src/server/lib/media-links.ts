import { createHmac, randomBytes } from 'node:crypto';
import { safeEqual } from './tokens';

/**
 * Links to a VIP mix's bytes (`/media/mixes/<id>/<purpose>?token=`), bound to the session that asked
 * for them (docs/decisions/0015-vip-mixes-and-media-storage.md): the HMAC covers the member, a hash of
 * the session id, the mix, the purpose and the expiry, and the media route checks it against the
 * session cookie the request carries. A link copied out of the browser is worth nothing without the
 * cookie; signing out ends it. The tier is re-read with the session on every request (access.ts).
 */

export type MediaPurpose = 'stream' | 'download';

const TOKEN_RE = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export interface MediaLinkClaims {
  memberId: string;
  /** The session's stored id hash (lib/sessions.ts), never the cookie itself. */
  sessionIdHash: string;
  mixId: string;
  purpose: MediaPurpose;
}

export class MediaLinks {
  private readonly secret: Buffer;

  /** `key` is STREAM_AUTH_KEY; the HMAC key is derived from it for this one purpose. Unset: a per-process secret. */
  constructor(key: string | undefined) {
    this.secret = key ? createHmac('sha256', key).update('dhr media links v1').digest() : randomBytes(32);
  }

  private sign(c: MediaLinkClaims, expiry: number): string {
    return createHmac('sha256', this.secret).update(`${c.memberId}\n${c.sessionIdHash}\n${c.mixId}\n${c.purpose}\n${expiry}`).digest('base64url');
  }

  issue(claims: MediaLinkClaims, ttlS: number, now = Date.now()): { token: string; expiresAt: Date } {
    const expiry = Math.floor(now / 1000) + ttlS;
    return { token: `${expiry}.${this.sign(claims, expiry)}`, expiresAt: new Date(expiry * 1000) };
  }

  /** When the token was issued for exactly these claims and has not expired: its expiry; else null. */
  verify(token: string, claims: MediaLinkClaims, now = Date.now()): Date | null {
    const m = TOKEN_RE.exec(token);
    if (!m) return null;
    const expiry = Number(m[1]);
    if (!safeEqual(m[2] ?? '', this.sign(claims, expiry))) return null;
    return expiry * 1000 > now ? new Date(expiry * 1000) : null;
  }
}

export function mediaPath(mixId: string, purpose: MediaPurpose, token: string): string {
  return `/media/mixes/${mixId}/${purpose}?token=${encodeURIComponent(token)}`;
}
