import type { FastifyBaseLogger } from 'fastify';
import { METADATA_SERVICE } from '../../../contracts/radio';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { TrackIdentificationRow } from '../../db/schema';
import type { ChannelRow } from '../radio/channels-repository';
import type { NowPlaying } from '../radio/now-playing';
import { captureAudio, recognizeAcrCloud, recognizeAudd, type Recognition } from './recognizers';
import { recordPlay } from './tracks-repository';
import { MINUTE_MS, SECOND_MS } from '../../../contracts/time';
import { claimScheduledRun } from '../../lib/periodic-job';

/** Seconds of audio sent to the recogniser. */
export const SAMPLE_SECONDS = 10;
/** Bitrate assumed when Icecast does not report one. */
const DEFAULT_BITRATE_KBPS = 128;

type RecognizerConfig = Pick<
  Config,
  'RECOGNIZER' | 'AUDD_API_URL' | 'AUDD_API_TOKEN' | 'ACRCLOUD_HOST' | 'ACRCLOUD_ACCESS_KEY' | 'ACRCLOUD_ACCESS_SECRET' | 'TRACK_MONITOR_INTERVAL_S'
>;

/**
 * Every TRACK_MONITOR_INTERVAL_S, per channel on air: identify the audio (AudD or ACRCloud), else take
 * the stream's own metadata, and store it unless it is the track already playing.
 */
export class TrackMonitor {
  /** Called after a new play is stored (the routes drop their caches). */
  onStored: (row: TrackIdentificationRow) => void = () => undefined;
  sampleSeconds = SAMPLE_SECONDS;
  recognizerTimeoutMs = 20_000;

  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private active = false;

  constructor(
    private readonly database: Database,
    private readonly nowPlaying: NowPlaying,
    private readonly config: RecognizerConfig,
    private readonly log: FastifyBaseLogger,
    /** The URL the monitor samples a channel at (premium mounts need a stream token). */
    private readonly sampleUrl: (channel: ChannelRow) => string = (channel) => channel.streamUrl,
  ) {}

  get intervalMs(): number {
    return this.config.TRACK_MONITOR_INTERVAL_S * SECOND_MS;
  }

  /** A play counts as the same while it was heard within the last two runs (plus slack for a slow run). */
  get stillPlayingMs(): number {
    return 2 * this.intervalMs + MINUTE_MS;
  }

  /** Whether the monitor runs for the channel (false shows 'Monitor stopped'). */
  isActive(channel: string): boolean {
    return this.active && this.nowPlaying.state(channel)?.online === true;
  }

  start(intervalMs = this.intervalMs): void {
    if (this.active) return;
    this.active = true;
    // Every instance ticks; the one that claims the period samples the channels, so the recognizer is
    // paid for once per period however many instances run.
    const tick = () => {
      claimScheduledRun(this.database.db, 'track monitor', intervalMs)
        .then((claimed) => (claimed ? this.runOnce() : undefined))
        .catch((err: unknown) => this.log.warn({ err }, 'track monitor run failed'))
        .finally(() => {
          if (this.active) {
            this.timer = setTimeout(tick, intervalMs);
            this.timer.unref();
          }
        });
    };
    // First run once the metadata poller has had a moment to read Icecast.
    this.timer = setTimeout(tick, Math.min(intervalMs, 15_000));
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** One pass over every channel; runs never overlap. */
  async runOnce(): Promise<void> {
    if (this.running) return this.running;
    this.running = (async () => {
      for (const id of this.nowPlaying.channelIds()) {
        try {
          await this.checkChannel(id);
        } catch (err) {
          this.log.warn({ channel: id, err }, 'track monitor failed for channel');
        }
      }
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Identifies and stores what plays on one channel now; returns the stored row when it is a new play. */
  async checkChannel(id: string, now = new Date()): Promise<TrackIdentificationRow | undefined> {
    const state = this.nowPlaying.state(id);
    const channel = this.nowPlaying.channel(id);
    if (!channel || !state?.online) return undefined;
    const rec = (await this.recognize(this.sampleUrl(channel), state.bitrate, id)) ?? this.fromMetadata(id);
    if (!rec) return undefined;
    const row = await recordPlay(this.database.db, id, rec, this.stillPlayingMs, now);
    if (row) this.onStored(row);
    return row;
  }

  /** The stream's own "Artist - Title", when it has one. */
  fromMetadata(id: string): Recognition | null {
    const s = this.nowPlaying.state(id);
    if (!s?.online || !s.title || !s.artist) return null;
    return {
      title: s.title,
      artist: s.artist,
      album: s.album || null,
      artwork: null,
      // The station states what it plays; the live card still treats this service as "not identified".
      confidence: 100,
      service: METADATA_SERVICE,
      durationS: null,
      releaseDate: null,
      isrc: null,
      label: null,
      genre: s.genre,
      bpm: bpmFromText(`${s.artist} ${s.title}`),
      youtubeUrl: null,
      soundcloudUrl: null,
      spotifyUrl: null,
    };
  }

  /** null when no recogniser is configured, nothing matched, or the recogniser failed (logged). */
  private async recognize(streamUrl: string, bitrate: number | null | undefined, channel: string): Promise<Recognition | null> {
    const c = this.config;
    if (c.RECOGNIZER === 'none') return null;
    try {
      if (c.RECOGNIZER === 'audd') {
        if (!c.AUDD_API_TOKEN) throw new Error('RECOGNIZER=audd needs AUDD_API_TOKEN');
        const sample = await captureAudio(streamUrl, this.sampleSeconds, bitrate || DEFAULT_BITRATE_KBPS);
        return await recognizeAudd(sample, { apiUrl: c.AUDD_API_URL, apiToken: c.AUDD_API_TOKEN, timeoutMs: this.recognizerTimeoutMs });
      }
      if (!c.ACRCLOUD_HOST || !c.ACRCLOUD_ACCESS_KEY || !c.ACRCLOUD_ACCESS_SECRET) {
        throw new Error('RECOGNIZER=acrcloud needs ACRCLOUD_HOST, ACRCLOUD_ACCESS_KEY and ACRCLOUD_ACCESS_SECRET');
      }
      const sample = await captureAudio(streamUrl, this.sampleSeconds, bitrate || DEFAULT_BITRATE_KBPS);
      return await recognizeAcrCloud(sample, {
        host: c.ACRCLOUD_HOST,
        accessKey: c.ACRCLOUD_ACCESS_KEY,
        accessSecret: c.ACRCLOUD_ACCESS_SECRET,
        timeoutMs: this.recognizerTimeoutMs,
      });
    } catch (err) {
      this.log.warn(
        { channel, recognizer: c.RECOGNIZER, err: err instanceof Error ? err.message : String(err) },
        'track recognition failed; using stream metadata',
      );
      return null;
    }
  }
}

/** An explicit "124 bpm" in a title (used when present); no guessing otherwise. */
export function bpmFromText(text: string): number | null {
  const m = /\b(\d{2,3})\s?bpm\b/i.exec(text);
  const n = m ? Number(m[1]) : NaN;
  return n >= 60 && n <= 200 ? n : null;
}
