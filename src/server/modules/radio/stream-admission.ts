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
  closeConnectionsOnMounts,
  connectionsOf,
  openConnectionsOf,
  openConnectionWithin,
  type StreamConnectionRow,
} from './stream-connections-repository';
import { mountPath } from './icecast-status';
import type { NowPlaying } from './now-playing';
import { MONITOR_SUBJECT, parseIcecastMount, type StreamTokens } from './stream-tokens';

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
    // Icecast may have lost connections without telling (a restart): a mount it reports empty holds none.
    if (!opened && (await this.closeConnectionsIcecastDropped(outcome.memberId, at)) > 0) {
      opened = await openConnectionWithin(this.db, values, this.maxConcurrent, at);
    }
    if (!opened) return { refusal: tooManyConnections(this.maxConcurrent) };
    return { timelimitS: outcome.timelimitS };
  }

  /** Icecast's listener_remove: the connection ended. */
  async release(connection: Pick<ListenerConnection, 'icecast' | 'clientId'>, now = Date.now()): Promise<void> {
    await closeConnection(this.db, connection.icecast, connection.clientId, new Date(now));
  }

  /** Closes the member's open rows on mounts whose channel Icecast reports with no listener (or off air). */
  private async closeConnectionsIcecastDropped(memberId: string, at: Date): Promise<number> {
    const open = await openConnectionsOf(this.db, memberId);
    const empty = new Set<string>();
    for (const id of this.nowPlaying.channelIds()) {
      const channel = this.nowPlaying.channel(id);
      const state = this.nowPlaying.state(id);
      const path = channel && mountPath(channel.streamUrl);
      if (path && state && (!state.online || state.listeners === 0)) empty.add(path);
    }
    const mounts = [...new Set(open.map((c) => c.mount))].filter((m) => empty.has(m));
    return closeConnectionsOnMounts(this.db, mounts, at);
  }

  /** The token, the mount and the member's tier; memberId null for DHR's own monitor. */
  private async check(mountField: string, now: number): Promise<{ refusal: string } | { timelimitS: number | null; memberId: string | null }> {
    const { path, token } = parseIcecastMount(mountField);
    if (!token) return { refusal: 'no stream token' };
    const channel = await this.channelByMount(path, now);
    if (!channel) return { refusal: 'unknown mount' };
    const verified = this.tokens.verify(token, path);
    if (!verified) return { refusal: 'invalid or expired token' };
    if (verified.subject === MONITOR_SUBJECT) return { timelimitS: MONITOR_TIMELIMIT_S, memberId: null };
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
