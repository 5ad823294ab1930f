import type { MemberStreamConnections, StreamConnection } from '../../../contracts/channels';
import { SUPPORTER_MESSAGES } from '../../../contracts/supporters';
import { meetsTier } from '../../../contracts/tier-policy';
import { parseTier, type Tier } from '../../../contracts/tiers';
import type { Db } from '../../db/client';
import { findMemberById } from '../members/members-repository';
import { clientNetworkPrefix } from '../../lib/client-address';
import { notFound } from '../../lib/errors';
import type { ChannelRow } from './channels-repository';
import {
  closeConnection,
  closeConnectionsByIds,
  connectionsOf,
  openConnectionsOf,
  openConnectionsOnMount,
  openConnectionWithin,
  recordListenerRead,
  type StreamConnectionRow,
} from './stream-connections-repository';
import { readMountListeners, type IcecastAdmin } from './icecast-listeners';
import { mountPath } from './icecast-status';
import type { NowPlaying } from './now-playing';
import { ICY_READER_SUBJECT, MONITOR_SUBJECT, parseIcecastMount, type StreamTokens } from './stream-tokens';

/** A monitor connection samples a few seconds of audio; Icecast closes it after this. */
const MONITOR_TIMELIMIT_S = 120;
/** An unknown mount re-reads the channel table at most this often. */
const CHANNEL_REFRESH_MS = 5_000;

/** The tier a channel row requires; an unreadable value fails closed. */
export function requiredTierOf(ch: ChannelRow): Tier {
  return parseTier(ch.requiredTier) ?? 'vip';
}

/** Why a listener connection is refused, or how long it may last (null: as long as it likes). */
export type Admission = { refusal: string } | { timelimitS: number | null };

/** What Icecast tells about the connection it asks about (listener_add's form fields). */
export interface ListenerConnection {
  /** `server:port` of the asking Icecast, and its id for the connection. */
  icecast: string;
  clientId: string;
  ip: string;
  userAgent: string;
}

/** The refusal a member over the concurrent-connection cap reads in Icecast's log. */
export const tooManyConnections = (max: number) => `already listening on ${max} connection${max === 1 ? '' : 's'} (the most a member may hold at once)`;

/** The refusal when a member is at the cap and Icecast's own list cannot say whether an older connection is gone. */
export const cannotCheckConnections = (max: number) =>
  `${tooManyConnections(max)}; the streaming server's listener list cannot be read to check whether one has ended`;

/**
 * A connection this young may not be in Icecast's listener list yet (Icecast lists a listener once
 * its admission answer has come back and the listener is attached): its row is never ended by a
 * list that misses it, so connections arriving together cannot clear each other's rows.
 */
export const LISTED_WITHIN_MS = 10_000;

/** Whether a row is old enough that Icecast's list must name it if the listener is still there. */
const mayBeUnlisted = (c: StreamConnectionRow, now = Date.now()) => c.startedAt.getTime() < now - LISTED_WITHIN_MS;

/** Longest user agent kept with a connection. */
const MAX_AGENT = 300;

/**
 * Icecast's question on every listener connection to a paid mount: does this token open this mount
 * for its member, now? The member is re-read each time, so a tier removed after the token was issued
 * closes the door at the next connection, and a connection never outlives the paid time.
 */
export class StreamAdmission {
  private lastRefresh = 0;

  constructor(
    private readonly db: Db,
    private readonly tokens: StreamTokens,
    private readonly nowPlaying: NowPlaying,
    private readonly maxConcurrent: number,
    private readonly icecastAdmin: IcecastAdmin,
    private readonly warn: (message: string, detail: Record<string, unknown>) => void = () => undefined,
  ) {}

  /**
   * Admits a member's connection and records it, or refuses it. A member holds at most
   * `maxConcurrent` connections across the premium mounts: a link passed around stops at that.
   */
  async admit(mountField: string, connection: ListenerConnection, now = Date.now()): Promise<Admission> {
    const outcome = await this.check(mountField, now);
    if ('refusal' in outcome || outcome.memberId === null) return outcome;
    const values = {
      userId: outcome.memberId,
      mount: parseIcecastMount(mountField).path,
      icecast: connection.icecast,
      clientId: connection.clientId,
      network: clientNetworkPrefix(connection.ip),
      userAgent: connection.userAgent.slice(0, MAX_AGENT),
    };
    const at = new Date(now);
    let opened = await openConnectionWithin(this.db, values, this.maxConcurrent, at);
    if (!opened) {
      // At the cap. Icecast may have lost a connection without telling (a listener_remove that never
      // came, a restart): only its own list, read now, may free a place, and only of this member's
      // rows that started before the read. Never a cached status: it fails open.
      const freed = await this.closeConnectionsIcecastDropped(outcome.memberId);
      if (freed === null) return { refusal: cannotCheckConnections(this.maxConcurrent) };
      if (freed > 0) opened = await openConnectionWithin(this.db, values, this.maxConcurrent, new Date(now));
    }
    if (!opened) return { refusal: tooManyConnections(this.maxConcurrent) };
    return { timelimitS: outcome.timelimitS };
  }

  /** Icecast's listener_remove: the connection ended. */
  async release(connection: Pick<ListenerConnection, 'icecast' | 'clientId'>, now = Date.now()): Promise<void> {
    await closeConnection(this.db, connection.icecast, connection.clientId, new Date(now));
  }

  /**
   * Closes the member's open rows that Icecast's listener lists, read now, no longer hold; null (and
   * a warning in DHR's log) when a list cannot be read, so the caller refuses rather than guesses.
   */
  private async closeConnectionsIcecastDropped(memberId: string): Promise<number | null> {
    const open = (await openConnectionsOf(this.db, memberId)).filter((c) => mayBeUnlisted(c));
    const gone: string[] = [];
    for (const mount of new Set(open.map((c) => c.mount))) {
      const streamUrl = premiumStreamUrls(this.nowPlaying).get(mount);
      let listed: Set<string>;
      try {
        if (!streamUrl) throw new Error(`no channel streams on ${mount}`);
        listed = await readMountListeners(streamUrl, this.icecastAdmin);
      } catch (err) {
        this.warn('cannot read the listener list of a premium mount; a member at the connection cap is refused', {
          mount,
          reason: err instanceof Error ? err.message : String(err),
        });
        return null;
      }
      for (const c of open) if (c.mount === mount && !listed.has(c.clientId)) gone.push(c.id);
    }
    return closeConnectionsByIds(this.db, gone, new Date());
  }

  /** The token, the mount and the member's tier; memberId null for DHR's own monitor and title readers (no connection row). */
  private async check(mountField: string, now: number): Promise<{ refusal: string } | { timelimitS: number | null; memberId: string | null }> {
    const { path, token } = parseIcecastMount(mountField);
    if (!token) return { refusal: 'no stream token' };
    const channel = await this.channelByMount(path, now);
    if (!channel) return { refusal: 'unknown mount' };
    const verified = this.tokens.verify(token, path);
    if (!verified) return { refusal: 'invalid or expired token' };
    if (verified.subject === MONITOR_SUBJECT) return { timelimitS: MONITOR_TIMELIMIT_S, memberId: null };
    // The title reader stays connected as long as the mount is on air; it reconnects with a new token.
    if (verified.subject === ICY_READER_SUBJECT) return { timelimitS: null, memberId: null };
    const member = await findMemberById(this.db, verified.subject);
    if (!member || !meetsTier(member, requiredTierOf(channel))) return { refusal: 'subscription does not open this channel' };
    const expiry = member.subscriptionExpiry;
    if (member.isAdmin || !expiry) return { timelimitS: null, memberId: member.id };
    return { timelimitS: Math.max(1, Math.floor((expiry.getTime() - now) / 1000)), memberId: member.id };
  }

  /** The channel whose premium mount has this path (channels are data: a new row is found without code). */
  private async channelByMount(path: string, now: number): Promise<ChannelRow | undefined> {
    const find = () =>
      this.nowPlaying
        .channelIds()
        .map((id) => this.nowPlaying.channel(id))
        .find((ch) => ch !== undefined && mountPath(ch.streamUrl) === path);
    let found = find();
    if (!found && now - this.lastRefresh > CHANNEL_REFRESH_MS) {
      this.lastRefresh = now;
      await this.nowPlaying.refreshChannels();
      found = find();
    }
    return found;
  }
}

/** Each premium mount's path and its stream URL (the channels are data). */
function premiumStreamUrls(nowPlaying: NowPlaying): Map<string, string> {
  const out = new Map<string, string>();
  for (const id of nowPlaying.channelIds()) {
    const ch = nowPlaying.channel(id);
    const path = ch && mountPath(ch.streamUrl);
    if (ch && path) out.set(path, ch.streamUrl);
  }
  return out;
}

/**
 * Renews the open rows Icecast still lists and ends those its lists miss twice in a row, mount by
 * mount (the periodic job, once across instances): a lost listener_remove neither holds a place
 * nor frees one for long. A mount whose list cannot be read is left as it is.
 */
export async function renewStreamConnections(
  db: Db,
  nowPlaying: NowPlaying,
  icecastAdmin: IcecastAdmin,
): Promise<{ renewed: number; ended: number; unreadable: string[] }> {
  let renewed = 0;
  let ended = 0;
  const unreadable: string[] = [];
  for (const [mount, streamUrl] of premiumStreamUrls(nowPlaying)) {
    const open = await openConnectionsOnMount(db, mount);
    if (!open.length) continue;
    let listed: Set<string>;
    try {
      listed = await readMountListeners(streamUrl, icecastAdmin);
    } catch {
      unreadable.push(mount);
      continue;
    }
    const seen = open.filter((c) => listed.has(c.clientId)).map((c) => c.id);
    const missed = open.filter((c) => !listed.has(c.clientId) && mayBeUnlisted(c)).map((c) => c.id);
    renewed += seen.length;
    ended += await recordListenerRead(db, seen, missed, new Date());
  }
  return { renewed, ended, unreadable };
}

/** Connections the admin's user view lists: every open one and the most recent that ended. */
const CONNECTIONS_SHOWN = 20;

/** A member's premium-stream connections for the admin's user view; 404 for an unknown member. */
export async function memberStreamConnections(db: Db, userId: string, maxConcurrent: number): Promise<MemberStreamConnections> {
  if (!(await findMemberById(db, userId))) throw notFound(SUPPORTER_MESSAGES.memberNotFound, 'user_not_found');
  const rows = await connectionsOf(db, userId, CONNECTIONS_SHOWN);
  const view = (r: StreamConnectionRow): StreamConnection => ({
    mount: r.mount,
    network: r.network,
    userAgent: r.userAgent,
    since: r.startedAt.toISOString(),
    endedAt: r.endedAt?.toISOString() ?? null,
  });
  return {
    maxConcurrent,
    current: rows.filter((r) => r.endedAt === null).map(view),
    recent: rows.filter((r) => r.endedAt !== null).map(view),
  };
}
