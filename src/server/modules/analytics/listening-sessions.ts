import { SECOND_MS } from '../../../contracts/time';
import type { Db } from '../../db/client';
import { clientNetworkPrefix } from '../../lib/client-address';
import { readMountClients, type IcecastAdmin, type MountClient } from '../radio/icecast-listeners';
import { mountPath } from '../radio/icecast-status';
import { ICY_READER_AGENT } from '../radio/icy-titles';
import type { NowPlaying } from '../radio/now-playing';
import { openConnectionsOnMount } from '../radio/stream-connections-repository';
import { placeOf } from '../visitors/geo';
import { endSessions, openSessions, openSessionsOn, touchSessions, type ListeningSessionRow, type NewListeningSession } from './listening-sessions-repository';
import { playerFamily } from './player-family';

/** One mount a channel streams on: the premium one (members admitted by DHR) or the free one. */
interface ChannelMount {
  channelId: string;
  streamUrl: string;
  mount: string;
  premium: boolean;
}

/** Every mount of every channel, each once. */
function channelMounts(nowPlaying: NowPlaying): ChannelMount[] {
  const out = new Map<string, ChannelMount>();
  for (const id of nowPlaying.channelIds()) {
    const ch = nowPlaying.channel(id);
    if (!ch) continue;
    for (const [url, premium] of [
      [ch.streamUrl, true],
      [ch.freeStreamUrl, false],
    ] as const) {
      const mount = url ? mountPath(url) : undefined;
      if (url && mount && !out.has(url)) out.set(url, { channelId: id, streamUrl: url, mount, premium });
    }
  }
  return [...out.values()];
}

/**
 * A listed connection id names the open row only while the times agree: a list whose connection
 * started after the row was last seen is a new connection under a reused id (Icecast restarted).
 */
const SAME_CONNECTION_SLACK_MS = 2 * SECOND_MS;

/**
 * One reading of every mount's listener list: a listener named for the first time opens a session
 * (started when Icecast says it connected), one named again is renewed, an open session the list no
 * longer names ends when it was last seen (under 5 s: dropped as a reconnect). A mount whose list
 * cannot be read is left as it is and reported.
 */
export async function recordListeningSessions(
  db: Db,
  nowPlaying: NowPlaying,
  admin: IcecastAdmin,
  now: Date = new Date(),
): Promise<{ opened: number; ended: number; unreadable: string[] }> {
  let opened = 0;
  let ended = 0;
  const unreadable: string[] = [];
  for (const m of channelMounts(nowPlaying)) {
    let clients: MountClient[];
    try {
      clients = (await readMountClients(m.streamUrl, admin)).filter((c) => c.userAgent !== ICY_READER_AGENT);
    } catch {
      unreadable.push(m.mount);
      continue;
    }
    const result = await applyMountList(db, m, clients, now);
    opened += result.opened;
    ended += result.ended;
  }
  return { opened, ended, unreadable };
}

async function applyMountList(db: Db, m: ChannelMount, clients: MountClient[], now: Date): Promise<{ opened: number; ended: number }> {
  const icecast = new URL(m.streamUrl).host;
  const open = new Map<string, ListeningSessionRow>();
  for (const row of await openSessionsOn(db, icecast, m.mount)) open.set(row.clientId, row);
  const members = m.premium ? new Map((await openConnectionsOnMount(db, m.mount)).map((c) => [c.clientId, c.userId])) : new Map<string, string>();
  const renewed: string[] = [];
  const fresh: NewListeningSession[] = [];
  for (const c of clients) {
    const startedAt = new Date(now.getTime() - c.connectedS * SECOND_MS);
    const row = open.get(c.id);
    if (row && startedAt.getTime() <= row.lastSeenAt.getTime() + SAME_CONNECTION_SLACK_MS) {
      renewed.push(row.id);
      open.delete(c.id);
      continue;
    }
    fresh.push({
      channelId: m.channelId,
      mount: m.mount,
      icecast,
      clientId: c.id,
      network: clientNetworkPrefix(c.ip),
      country: c.ip ? placeOf(c.ip).country : null,
      player: playerFamily(c.userAgent),
      userAgent: c.userAgent,
      userId: members.get(c.id) ?? null,
      startedAt,
      lastSeenAt: now,
    });
  }
  // What is left open was not named (or was named as a new connection): it ended.
  const endedCount = await endSessions(
    db,
    [...open.values()].map((r) => r.id),
  );
  await touchSessions(db, renewed, now);
  await openSessions(db, fresh);
  return { opened: fresh.length, ended: endedCount };
}
