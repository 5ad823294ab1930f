import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { SECOND_MS } from '../../../contracts/time';
import { NOW_PLAYING_EVENT, nowPlayingEventSchema, type LiveMetadataReply, type NowPlayingEvent } from '../../../contracts/radio';
import { DEFAULT_LISTING, type StationListing } from '../../../contracts/structured-data';
import type { Database } from '../../db/client';
import { notFound } from '../../lib/errors';
import { listChannels, type ChannelRow } from './channels-repository';
import { fetchStatus, findMount, mountPath, splitTitle, statusUrlFor, type MountStatus } from './icecast-status';
import { ICY_READERS_CHANNEL, ReaderPresence } from './icy-reader-presence';
import type { IcyTitleSink } from './icy-titles';
import { freeMountStatusUrl, MountFigures } from './mount-figures';
import { SseHub } from '../events/sse-hub';

/** Postgres NOTIFY channel carrying now-playing changes between instances. */
export const NOW_PLAYING_CHANNEL = 'now_playing';

/** Another instance's title readers count in the listener figures until it has not been heard for this many poll periods. */
const READER_ANNOUNCEMENTS_KEPT = 3;
/** An unknown channel re-reads the channel table at most this often (channels are data and may be added). */
const CHANNEL_REFRESH_MS = 5_000;
/** METADATA_POLL_S's default: the poll period assumed until start() names one, and the shortest one announcements are kept for. */
const DEFAULT_POLL_MS = 10 * SECOND_MS;

/** Consecutive failed reads before a channel is declared off air (one slow answer should not blank every player). */
const FAILURES_BEFORE_OFFLINE = 2;

export interface ChannelState extends NowPlayingEvent {
  /** Event id: increases with every change, across channels. */
  version: number;
  genre: string | null;
}

/** A song a channel played, as its metadata said when it started (newest first in `playedSongs`). */
export interface PlayedSong {
  /** The change's event version: unique and increasing. */
  id: number;
  startedAt: number;
  artist: string;
  title: string;
  album: string;
  text: string;
  genre: string | null;
}

/** Songs kept per channel: the one playing and the last ten (the now-playing API's song_history). */
const PLAYED_SONGS_KEPT = 11;

export interface MetadataReply {
  status: 200 | 503;
  body: string;
  etag?: string;
}

const notifySchema = z.object({ v: z.number().int().positive(), e: nowPlayingEventSchema, g: z.string().nullable().optional() });

function sameContent(a: NowPlayingEvent, b: NowPlayingEvent): boolean {
  return a.online === b.online && a.artist === b.artist && a.title === b.title && a.album === b.album && a.current_track === b.current_track;
}

/**
 * What is playing on each channel, kept in memory. Changes seen by this instance's in-band title
 * readers (icy-titles.ts) and its status poller are published with NOTIFY; every instance (this one
 * included) applies what it hears, so all agree, and pushes it to its SSE clients.
 */
export class NowPlaying implements IcyTitleSink {
  /** Each mount's own listeners, bitrate, format and name, from the status documents the poller reads. */
  readonly mounts = new MountFigures();
  /** Called with every change applied (the AzuraCast SSE stream publishes from here). */
  readonly changeListeners: ((state: ChannelState) => void)[] = [];
  /** How long one status read may take before it counts as a failure. */
  statusTimeoutMs = 5_000;

  private channels = new Map<string, ChannelRow>();
  private readonly states = new Map<string, ChannelState>();
  private readonly replies = new Map<string, MetadataReply>();
  private readonly failures = new Map<string, number>();
  private readonly failingUrls = new Set<string>();
  private readonly lastRead = new Map<string, Date>();
  private readonly lastError = new Map<string, string>();
  private readonly played = new Map<string, PlayedSong[]>();
  /** Where the in-band title readers are connected (here: titles come from them); their connections are no listeners. */
  private readonly readers: ReaderPresence;
  private pollIntervalMs = DEFAULT_POLL_MS;
  private lastVersion = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private unlistenReaders: (() => Promise<void>) | undefined;
  private stopped = false;

  private lastChannelRefresh = 0;

  constructor(
    private readonly database: Database,
    /** The live event stream's clients (modules/events): each change is written to them. */
    private readonly hub: SseHub,
    private readonly log: FastifyBaseLogger,
    /** The station's genre, country and language, written into each live-metadata reply (config.ts STATION_*). */
    private readonly listing: StationListing = DEFAULT_LISTING,
  ) {
    this.readers = new ReaderPresence((payload) =>
      this.database.notify(ICY_READERS_CHANNEL, payload).catch((err: unknown) => this.log.warn({ err }, 'could not announce the title readers')),
    );
  }

  /** Loads the channels and subscribes to changes (and title readers) announced by any instance. */
  async init(): Promise<void> {
    await this.refreshChannels();
    this.unlisten = await this.database.listen(NOW_PLAYING_CHANNEL, (payload) => this.onNotify(payload));
    this.unlistenReaders = await this.database.listen(ICY_READERS_CHANNEL, (payload) => this.readers.hear(payload));
  }

  /** Called after every read of the channel table (the title readers follow it). */
  onChannels: (() => void) | undefined;

  async refreshChannels(): Promise<void> {
    const rows = await listChannels(this.database.db);
    this.channels = new Map(rows.map((r) => [r.id, r]));
    this.onChannels?.();
  }

  channel(id: string): ChannelRow | undefined {
    return this.channels.get(id);
  }

  channelIds(): string[] {
    return [...this.channels.keys()];
  }

  /** The id of the latest change on any channel: answers built from the states are stale once it moves. */
  get version(): number {
    return this.lastVersion;
  }

  /** The channel id when it names a channel, else the 404 "Unknown channel" (an unknown id re-reads the channel table first). */
  async knownChannel(id: string): Promise<string> {
    if (!this.channel(id) && Date.now() - this.lastChannelRefresh > CHANNEL_REFRESH_MS) {
      this.lastChannelRefresh = Date.now();
      await this.refreshChannels();
    }
    if (!this.channel(id)) throw notFound(`Unknown channel '${id}'. Channels: ${this.channelIds().join(', ')}`, 'unknown_channel');
    return id;
  }

  state(id: string): ChannelState | undefined {
    return this.states.get(id);
  }

  /** Polls every channel now, then every `intervalMs`, until stop(). Runs never overlap. */
  start(intervalMs: number): void {
    if (this.timer || this.stopped) return;
    this.pollIntervalMs = intervalMs;
    const tick = () => {
      this.pollOnce()
        .catch((err: unknown) => this.log.warn({ err }, 'now-playing poll failed'))
        .finally(() => {
          if (!this.stopped) {
            this.timer = setTimeout(tick, intervalMs);
            this.timer.unref();
          }
        });
    };
    this.timer = setTimeout(tick, 0);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.polling?.catch(() => undefined);
    await this.unlisten?.().catch(() => undefined);
    await this.unlistenReaders?.().catch(() => undefined);
  }

  /** One read of every channel's Icecast status (one request per distinct status URL). */
  async pollOnce(): Promise<void> {
    if (this.polling) return this.polling;
    this.polling = this.doPoll().finally(() => {
      this.polling = undefined;
    });
    return this.polling;
  }

  private async doPoll(): Promise<void> {
    await this.refreshChannels();
    await this.readers.heartbeat();
    const byStatusUrl = new Map<string, ChannelRow[]>();
    for (const ch of this.channels.values()) {
      let url: string;
      try {
        url = statusUrlFor(ch.streamUrl, ch.statusUrl);
      } catch {
        this.log.warn({ channel: ch.id }, 'channel has no valid stream URL');
        continue;
      }
      byStatusUrl.set(url, [...(byStatusUrl.get(url) ?? []), ch]);
    }
    // A free mount on another Icecast is read too, for its own figures (mount-figures.ts).
    for (const ch of this.channels.values()) {
      const url = freeMountStatusUrl(ch);
      if (url && !byStatusUrl.has(url)) byStatusUrl.set(url, []);
    }
    await Promise.all(
      [...byStatusUrl].map(async ([url, chans]) => {
        let doc: unknown;
        try {
          doc = await fetchStatus(url, this.statusTimeoutMs);
          this.mounts.record(url, doc);
          if (this.failingUrls.delete(url)) this.log.info({ url }, 'icecast status readable again');
        } catch (err) {
          // Warn once per outage, not on every poll.
          const level = this.failingUrls.has(url) ? 'debug' : 'warn';
          this.failingUrls.add(url);
          const message = err instanceof Error ? err.message : String(err);
          this.log[level]({ url, err: message }, 'icecast status unavailable');
          for (const ch of chans) {
            this.lastError.set(ch.id, `${url}: ${message}`);
            await this.onReadFailure(ch);
          }
          return;
        }
        for (const ch of chans) {
          let mount: MountStatus | null;
          try {
            mount = findMount(doc, mountPath(ch.streamUrl) ?? '');
          } catch (err) {
            const message = err instanceof Error ? err.message : String(err);
            this.log.warn({ url, err: message }, 'icecast status is not usable');
            this.lastError.set(ch.id, `${url}: ${message}`);
            await this.onReadFailure(ch);
            continue;
          }
          this.failures.set(ch.id, 0);
          this.lastRead.set(ch.id, new Date());
          if (!mount) this.lastError.set(ch.id, `${url}: no source on mount ${mountPath(ch.streamUrl) ?? ''}`);
          else this.lastError.delete(ch.id);
          await this.observe(ch, mount);
        }
      }),
    );
  }

  private async onReadFailure(ch: ChannelRow): Promise<void> {
    const n = (this.failures.get(ch.id) ?? 0) + 1;
    this.failures.set(ch.id, n);
    const current = this.states.get(ch.id);
    // Only this instance failed to read; others that can still read Icecast must not be told "off air".
    // A connected title reader is receiving the mount's audio: the channel is on air whatever the status says.
    if (n >= FAILURES_BEFORE_OFFLINE && (!current || current.online) && !this.readers.has(ch.id)) await this.observe(ch, null, false);
  }

  /**
   * Compares a fresh status read with the state; publishes a change, or refreshes listener figures in
   * place. While the channel's title reader is connected its title is fresher than the status (read up
   * to a poll period ago): the read then changes only the figures, and its own connection is not counted.
   */
  private async observe(ch: ChannelRow, mount: MountStatus | null, publish = true): Promise<void> {
    const current = this.states.get(ch.id);
    const now = new Date().toISOString();
    const fromIcy = this.readers.has(ch.id) && mount && current?.online ? current : undefined;
    const readers = mount ? this.titleReadersOn(ch.id) : 0;
    const next: NowPlayingEvent = mount
      ? {
          channel: ch.id,
          online: true,
          // A title without "Artist - " is shown under the channel's own name rather than with no artist.
          artist: fromIcy ? fromIcy.artist : mount.artist || (mount.title ? ch.name : ''),
          title: fromIcy ? fromIcy.title : mount.title,
          album: fromIcy ? fromIcy.album : '',
          current_track: fromIcy ? fromIcy.current_track : mount.raw,
          listeners: mount.listeners === null ? null : Math.max(0, mount.listeners - readers),
          bitrate: mount.bitrate,
          updatedAt: fromIcy?.updatedAt ?? now,
        }
      : { channel: ch.id, online: false, artist: '', title: '', album: '', current_track: '', listeners: null, bitrate: null, updatedAt: now };
    await this.change(next, fromIcy ? fromIcy.genre : (mount?.genre ?? null), publish);
  }

  /** DHR's in-band title readers connected to the channel's mount, on every instance: Icecast counts them as listeners. */
  titleReadersOn(channel: string): number {
    return this.readers.readersOn(channel, READER_ANNOUNCEMENTS_KEPT * Math.max(this.pollIntervalMs, DEFAULT_POLL_MS));
  }

  /** Whether this instance's in-band title reader of the channel is connected. */
  titleReaderConnected(channel: string): boolean {
    return this.readers.has(channel);
  }

  /** A title the channel's in-band reader heard (icy-titles.ts): into the store and out to every instance at once. */
  async icyTitle(channel: string, raw: string, bitrateKbps: number | null): Promise<void> {
    const ch = this.channels.get(channel);
    if (!ch) return;
    const current = this.states.get(channel);
    const { artist, title } = splitTitle(raw);
    await this.change(
      {
        channel,
        online: true,
        artist: artist || (title ? ch.name : ''),
        title,
        album: '',
        current_track: raw,
        // The figures stay the status poll's.
        listeners: current?.online ? current.listeners : null,
        bitrate: current?.online && current.bitrate !== null ? current.bitrate : bitrateKbps,
        updatedAt: new Date().toISOString(),
      },
      current?.genre ?? null,
      true,
    );
  }

  /** The channel's title reader connected or went away; while away, the status poll's titles count again. */
  async icyReader(channel: string, connected: boolean): Promise<void> {
    await this.readers.set(channel, connected);
  }

  /** Applies a new state when its content differs (else refreshes the figures in place) and NOTIFYs it when `publish`. */
  private async change(next: NowPlayingEvent, genre: string | null, publish: boolean): Promise<void> {
    const current = this.states.get(next.channel);
    if (current && sameContent(current, next)) {
      if (current.listeners !== next.listeners || current.bitrate !== next.bitrate) {
        current.listeners = next.listeners;
        current.bitrate = next.bitrate;
        this.rebuildReply(current);
      }
      return;
    }
    const version = Math.max(Date.now(), this.lastVersion + 1);
    this.apply(next, version, genre);
    if (!publish) return;
    try {
      await this.database.notify(NOW_PLAYING_CHANNEL, JSON.stringify({ v: version, e: next, g: genre }));
    } catch (err) {
      this.log.warn({ err }, 'could not publish now-playing change');
    }
  }

  /** Publishes a change as if the poller had seen it (tests and the bench drive changes this way). */
  async publish(event: NowPlayingEvent, genre: string | null = null): Promise<void> {
    const version = Math.max(Date.now(), this.lastVersion + 1);
    this.apply(event, version, genre);
    await this.database.notify(NOW_PLAYING_CHANNEL, JSON.stringify({ v: version, e: event, g: genre }));
  }

  private onNotify(payload: string): void {
    let parsed: z.infer<typeof notifySchema>;
    try {
      parsed = notifySchema.parse(JSON.parse(payload));
    } catch {
      this.log.warn('ignored a malformed now-playing notification');
      return;
    }
    const current = this.states.get(parsed.e.channel);
    // Our own notification coming back, or one older than what we already show.
    if (current && (parsed.v <= current.version || sameContent(current, parsed.e))) return;
    this.apply(parsed.e, Math.max(parsed.v, this.lastVersion + 1), parsed.g ?? null);
  }

  private apply(event: NowPlayingEvent, version: number, genre: string | null): void {
    const state: ChannelState = { ...event, version, genre };
    this.lastVersion = Math.max(this.lastVersion, version);
    this.states.set(event.channel, state);
    this.notePlayed(state);
    this.rebuildReply(state);
    this.hub.broadcastRaw(this.frameOf(state));
    for (const listener of this.changeListeners) listener(state);
  }

  /** Every instance hears every change (NOTIFY), so each keeps the same list from the time it started. */
  private notePlayed(state: ChannelState): void {
    if (!state.online || !state.current_track) return;
    const songs = this.played.get(state.channel) ?? [];
    if (songs[0]?.text === state.current_track) return;
    const song: PlayedSong = {
      id: state.version,
      startedAt: (state.updatedAt && Date.parse(state.updatedAt)) || Date.now(),
      artist: state.artist,
      title: state.title,
      album: state.album,
      text: state.current_track,
      genre: state.genre,
    };
    this.played.set(state.channel, [song, ...songs].slice(0, PLAYED_SONGS_KEPT));
  }

  /** The song playing now (first) and the ones before it, newest first. */
  playedSongs(channel: string): readonly PlayedSong[] {
    return this.played.get(channel) ?? [];
  }

  private frameOf(state: ChannelState): string {
    const data: NowPlayingEvent = {
      channel: state.channel,
      online: state.online,
      artist: state.artist,
      title: state.title,
      album: state.album,
      current_track: state.current_track,
      listeners: state.listeners,
      bitrate: state.bitrate,
      updatedAt: state.updatedAt,
    };
    return SseHub.frame(NOW_PLAYING_EVENT, JSON.stringify(data), state.version);
  }

  private rebuildReply(state: ChannelState): void {
    if (!state.online) {
      this.replies.set(state.channel, this.offlineReply(state.channel));
      return;
    }
    const body: LiveMetadataReply = {
      artist: state.artist,
      title: state.title,
      album: state.album,
      current_track: state.current_track,
      listeners: state.listeners,
      bitrate: state.bitrate,
      updatedAt: state.updatedAt,
      genre: this.listing.genre,
      country: this.listing.country,
      language: this.listing.language,
      codec: this.codecOf(state.channel),
    };
    const json = JSON.stringify(body);
    this.replies.set(state.channel, { status: 200, body: json, etag: `"${createHash('sha1').update(json).digest('base64url').slice(0, 20)}"` });
  }

  /** The premium mount's codec as Icecast's status says it, else its file extension's, else null. */
  private codecOf(channel: string): string | null {
    const row = this.channels.get(channel);
    if (!row) return null;
    const ext = /\.(mp3|aac|ogg|opus|flac)$/i.exec(URL.canParse(row.streamUrl) ? new URL(row.streamUrl).pathname : '')?.[1];
    return this.mounts.premiumMount(row)?.format ?? ext?.toLowerCase() ?? null;
  }

  private offlineReply(channel: string): MetadataReply {
    const name = this.channels.get(channel)?.name ?? channel.toUpperCase();
    const message = `${name} is off air right now. Please try again shortly.`;
    return { status: 503, body: JSON.stringify({ error: { code: 'channel_offline', message }, message }) };
  }

  /** Reader state per channel, for GET /api/health/metadata. */
  diagnostics(id: string): { lastReadAt: string | null; consecutiveFailures: number; lastError: string | null } {
    return {
      lastReadAt: this.lastRead.get(id)?.toISOString() ?? null,
      consecutiveFailures: this.failures.get(id) ?? 0,
      lastError: this.lastError.get(id) ?? null,
    };
  }

  /** The reply of GET /api/live-metadata/{channel}: from memory, 503 until the channel is seen on air. */
  metadataReply(channel: string): MetadataReply {
    return this.replies.get(channel) ?? this.offlineReply(channel);
  }

  /**
   * Frames to send a client that (re)connects: every channel's state on a first connection;
   * after Last-Event-ID, only what changed since (all of it when the id is unknown to us).
   */
  framesSince(lastEventId: number | undefined): string {
    const known = lastEventId !== undefined && Number.isFinite(lastEventId) && lastEventId <= this.lastVersion;
    let out = '';
    for (const state of [...this.states.values()].sort((a, b) => a.version - b.version)) {
      if (!known || state.version > (lastEventId ?? 0)) out += this.frameOf(state);
    }
    return out;
  }
}
