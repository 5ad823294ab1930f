import { meetsTier } from '../../../contracts/tier-policy';
import { parseTier, type Tier } from '../../../contracts/tiers';
import type { Db } from '../../db/client';
import { findMemberById } from '../members/members-repository';
import type { ChannelRow } from './channels-repository';
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
  ) {}

  async admit(mountField: string, now = Date.now()): Promise<Admission> {
    const { path, token } = parseIcecastMount(mountField);
    if (!token) return { refusal: 'no stream token' };
    const channel = await this.channelByMount(path, now);
    if (!channel) return { refusal: 'unknown mount' };
    const verified = this.tokens.verify(token, path);
    if (!verified) return { refusal: 'invalid or expired token' };
    if (verified.subject === MONITOR_SUBJECT) return { timelimitS: MONITOR_TIMELIMIT_S };
    const member = await findMemberById(this.db, verified.subject);
    if (!member || !meetsTier(member, requiredTierOf(channel))) return { refusal: 'subscription does not open this channel' };
    const expiry = member.subscriptionExpiry;
    if (member.isAdmin || !expiry) return { timelimitS: null };
    return { timelimitS: Math.max(1, Math.floor((expiry.getTime() - now) / 1000)) };
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
