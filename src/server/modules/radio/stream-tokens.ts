/**
 * Listener tokens for the premium mounts (ADR 0012): `{subject}.{expiry}.{hmac}`, where the HMAC-SHA256
 * covers subject, mount and expiry. Icecast hands the token back to DHR (URL listener auth), which
 * verifies it here and then re-reads the member. Nothing is stored: a token lives only minutes.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { safeEqual } from '../../lib/tokens';

/** Long enough to reach Icecast after asking; the player asks again before every connection. */
export const STREAM_TOKEN_TTL_S = 5 * 60;
/** The subject of tokens DHR mints for itself (the track monitor samples premium mounts). */
export const MONITOR_SUBJECT = 'monitor';
/** The subject of tokens of DHR's in-band title readers (icy-titles.ts): admitted without a time limit, never a member's connection. */
export const ICY_READER_SUBJECT = 'titles';

const TOKEN_RE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|monitor|titles)\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export interface VerifiedToken {
  subject: string;
  expiresAt: Date;
}

export class StreamTokens {
  private readonly secret: Buffer;

  /**
   * `key` is STREAM_AUTH_KEY; the HMAC key is derived from it so the same secret is never used
   * for two purposes. Without one, tokens get a random per-process secret (and Icecast cannot ask anyway).
   */
  constructor(key: string | undefined) {
    this.secret = key ? createHmac('sha256', key).update('dhr stream tokens v1').digest() : randomBytes(32);
  }

  private sign(subject: string, mount: string, expiry: number): string {
    return createHmac('sha256', this.secret).update(`${subject}\n${mount}\n${expiry}`).digest('base64url');
  }

  /** A token for `subject` (member id, MONITOR_SUBJECT or ICY_READER_SUBJECT) on `mount` (the mount path, e.g. '/dhr1'). */
  issue(subject: string, mount: string, ttlS = STREAM_TOKEN_TTL_S, now = Date.now()): { token: string; expiresAt: Date } {
    const expiry = Math.floor(now / 1000) + ttlS;
    return { token: `${subject}.${expiry}.${this.sign(subject, mount, expiry)}`, expiresAt: new Date(expiry * 1000) };
  }

  /** The token's subject when it was issued by us for this mount and has not expired; else null. */
  verify(token: string, mount: string, now = Date.now()): VerifiedToken | null {
    const m = TOKEN_RE.exec(token);
    if (!m) return null;
    const [, subject = '', expiryText = '', signature = ''] = m;
    const expiry = Number(expiryText);
    if (!safeEqual(signature, this.sign(subject, mount, expiry))) return null;
    if (expiry * 1000 <= now) return null;
    return { subject, expiresAt: new Date(expiry * 1000) };
  }
}

/** The stream URL with its token: `?token=` is what Icecast passes on in listener_add's `mount`. */
export function withToken(streamUrl: string, token: string): string {
  const url = new URL(streamUrl);
  url.searchParams.set('token', token);
  return url.toString();
}

/** Splits Icecast's `mount` field ('/dhr1?token=...') into the mount path and the token. */
export function parseIcecastMount(mount: string): { path: string; token: string | null } {
  const at = mount.indexOf('?');
  const path = (at < 0 ? mount : mount.slice(0, at)).replace(/\/+$/, '') || '/';
  const token = at < 0 ? null : new URLSearchParams(mount.slice(at + 1)).get('token');
  return { path, token };
}
