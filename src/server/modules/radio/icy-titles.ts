/**
 * DHR's own reader of each channel's in-band (ICY) titles (docs/decisions/0029-one-now-playing-and-icy-timing.md):
 * one long-lived connection per mount asking for `Icy-MetaData: 1`; icecast-metadata-js cuts the title
 * blocks out of the audio (which is dropped) and each new title goes into the now-playing store at once.
 * The status poll stays for listener figures, and for titles while no reader is connected.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { IcecastMetadataReader } from 'icecast-metadata-js';
import { SECOND_MS } from '../../../contracts/time';
import { openServiceStream } from '../../lib/outbound-http';
import { MAX_TITLE_TEXT, mountPath } from './icecast-status';
import { ICY_READER_SUBJECT, withToken, type StreamTokens } from './stream-tokens';

/** The User-Agent of the title readers: Icecast's listener lists and logs show what they are. */
export const ICY_READER_AGENT = 'DHR-titles/1.0 (+https://deephouseradio; in-band title reader)';

/** Reconnection: a short first retry, doubling, capped, each wait spread by ±jitter so readers do not reconnect in step. */
export const RECONNECT = { firstMs: 500, maxMs: 30 * SECOND_MS, jitter: 0.25 } as const;
/** A connection that stayed up this long was healthy: the next drop starts the backoff again. */
const HEALTHY_AFTER_MS = 10 * SECOND_MS;
/** Until Icecast answers (its listener check for a premium mount included). */
const HEADERS_TIMEOUT_MS = 10 * SECOND_MS;
/** Audio flows all the time; this much silence means the connection is dead. */
const IDLE_TIMEOUT_MS = 20 * SECOND_MS;
/** Titles read this soon after connecting come from the burst of past audio: only the last of them counts. */
const BURST_SETTLE_MS = 500;
/** A reader's token only has to reach Icecast: it is checked when the connection opens. */
const READER_TOKEN_TTL_S = 60;

/** The wait before reconnecting after `failures` failed attempts in a row (0: the first retry); `random` in [0, 1). */
export function reconnectDelayMs(failures: number, random: number): number {
  const base = Math.min(RECONNECT.maxMs, RECONNECT.firstMs * 2 ** Math.min(Math.max(0, failures), 16));
  const spread = 1 - RECONNECT.jitter + 2 * RECONNECT.jitter * random;
  return Math.min(RECONNECT.maxMs, Math.round(base * spread));
}

/** The title a metadata block announces when it differs from `last`; undefined when it has none or repeats it. */
export function changedTitle(last: string | undefined, metadata: Record<string, string | undefined>): string | undefined {
  const raw = metadata.StreamTitle;
  if (raw === undefined) return undefined;
  const title = raw.trim().slice(0, MAX_TITLE_TEXT);
  return title === last ? undefined : title;
}

/** Where the readers' titles and connection states go (NowPlaying). */
export interface IcyTitleSink {
  /** A new title on the channel's mount, heard now. */
  icyTitle(channel: string, raw: string, bitrateKbps: number | null): Promise<void>;
  /** The channel's reader is connected (true) or not (false). */
  icyReader(channel: string, connected: boolean): Promise<void>;
}

export interface IcyTitleTarget {
  channel: string;
  streamUrl: string;
}

/** One mount's reader: connects, reads titles until the connection ends, waits (backoff) and connects again, until stop(). */
export class IcyTitleReader {
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;
  private failures = 0;
  private warned = false;

  constructor(
    readonly target: IcyTitleTarget,
    private readonly sink: IcyTitleSink,
    private readonly urlFor: (target: IcyTitleTarget) => string,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  private async loop(): Promise<void> {
    const { signal } = this.abort;
    while (!signal.aborted) {
      let upForMs = 0;
      try {
        upForMs = await this.readOnce();
      } catch (err) {
        if (signal.aborted) break;
        // Warn once per outage (the mount may stay down for hours), then only at debug level.
        const message = err instanceof Error ? err.message : String(err);
        this.log[this.warned ? 'debug' : 'warn']({ channel: this.target.channel, err: message }, 'in-band title reader disconnected; reconnecting');
        this.warned = true;
      }
      await this.sink.icyReader(this.target.channel, false);
      if (signal.aborted) break;
      if (upForMs >= HEALTHY_AFTER_MS) this.failures = 0;
      const waitMs = reconnectDelayMs(this.failures++, Math.random());
      await sleep(waitMs, undefined, { signal, ref: false }).catch(() => undefined);
    }
  }

  /** One connection, read to its end; returns how long it was up (0 when it never delivered audio). */
  private async readOnce(): Promise<number> {
    const { body, headers } = await openServiceStream(this.urlFor(this.target), {
      headers: { 'icy-metadata': '1', 'user-agent': ICY_READER_AGENT },
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      idleTimeoutMs: IDLE_TIMEOUT_MS,
      signal: this.abort.signal,
    });
    const metaInt = Number.parseInt(String(headers['icy-metaint'] ?? ''), 10);
    if (!Number.isFinite(metaInt) || metaInt <= 0) {
      body.destroy();
      throw new Error('the mount sends no in-band titles (no icy-metaint)');
    }
    const bitrate = Number.parseInt(String(headers['icy-br'] ?? ''), 10);
    const since = Date.now();
    if (this.warned) this.log.info({ channel: this.target.channel }, 'in-band title reader connected');
    this.warned = false;
    await this.sink.icyReader(this.target.channel, true);
    const br = Number.isFinite(bitrate) && bitrate > 0 ? bitrate : null;
    // Icecast's burst on connect is seconds of past audio, with the titles it had then: the titles
    // read while it comes in are held and only the last is published, so a reconnect just after a
    // change does not announce the previous title again.
    const settledAt = since + BURST_SETTLE_MS;
    let last: string | undefined;
    let held: string | undefined;
    const reader = new IcecastMetadataReader({
      icyMetaInt: metaInt,
      metadataTypes: ['icy'],
      onMetadata: async ({ metadata }) => {
        const title = changedTitle(last, metadata);
        if (title === undefined) return;
        last = title;
        if (Date.now() < settledAt) held = title;
        else await this.sink.icyTitle(this.target.channel, title, br);
      },
    });
    try {
      for await (const chunk of body) {
        await reader.asyncReadAll(chunk as Uint8Array<ArrayBuffer>);
        if (held !== undefined && Date.now() >= settledAt) {
          const title = held;
          held = undefined;
          if (title === last) await this.sink.icyTitle(this.target.channel, title, br);
        }
      }
    } catch (err) {
      if (Date.now() - since < HEALTHY_AFTER_MS) throw err;
      this.log.debug({ channel: this.target.channel, err: err instanceof Error ? err.message : String(err) }, 'in-band title connection dropped');
    }
    return Date.now() - since;
  }
}

/** The readers of every channel's mount, started and stopped together by the radio plugin. */
export class IcyTitles {
  private readonly readers = new Map<string, IcyTitleReader>();
  private readonly stopping = new Map<string, Promise<void>>();

  constructor(
    private readonly sink: IcyTitleSink & { channelIds(): string[]; channel(id: string): { streamUrl: string } | undefined },
    private readonly tokens: StreamTokens,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The mount's URL with a reader token of its own: a premium mount's listener check admits it as DHR, not as a member. */
  private urlFor = (target: IcyTitleTarget): string => {
    const mount = mountPath(target.streamUrl) ?? '/';
    return withToken(target.streamUrl, this.tokens.issue(ICY_READER_SUBJECT, mount, READER_TOKEN_TTL_S).token);
  };

  private started = false;

  /** Starts a reader for each channel's mount; later calls of sync() follow the channel table. */
  start(): void {
    this.started = true;
    this.sync();
  }

  /** Once started: a reader for each channel that has none, and a new one where a channel's mount changed or went away. */
  sync(): void {
    if (!this.started) return;
    const wanted = new Map<string, string>();
    for (const id of this.sink.channelIds()) {
      const streamUrl = this.sink.channel(id)?.streamUrl;
      if (streamUrl && URL.canParse(streamUrl)) wanted.set(id, streamUrl);
    }
    for (const [id, reader] of this.readers) {
      if (wanted.get(id) === reader.target.streamUrl) continue;
      // The new reader starts once the old one has said it is gone (the figures count readers per channel).
      this.readers.delete(id);
      this.stopping.set(
        id,
        reader.stop().finally(() => {
          this.stopping.delete(id);
          this.sync();
        }),
      );
    }
    for (const [id, streamUrl] of wanted) {
      if (this.readers.has(id) || this.stopping.has(id)) continue;
      const reader = new IcyTitleReader({ channel: id, streamUrl }, this.sink, this.urlFor, this.log);
      this.readers.set(id, reader);
      reader.start();
    }
  }

  /** Ends every connection and waits for the readers to finish. */
  async stop(): Promise<void> {
    this.started = false;
    const readers = [...this.readers.values()];
    this.readers.clear();
    await Promise.all([...readers.map((r) => r.stop()), ...this.stopping.values()]);
  }
}
