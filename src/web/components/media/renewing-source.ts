import type { PlayableMedia } from './use-media-player';

/** A stream link and how long it works from now (the player renews it before then). */
export interface MediaLink {
  url: string;
  /** Without it the link is renewed only when the audio fails. */
  expiresInMs?: number;
}

/** The longest a renewal is made ahead of the link's expiry. */
const RENEW_AHEAD_MAX_MS = 30_000;
/** Playback that has moved this far (seconds) past where a link started has proved the link works. */
const PROGRESS_S = 0.25;

/** When to fetch the next link: a fifth of the link's life before it expires, at most 30 s before. */
export function renewalDelay(expiresInMs: number): number {
  return Math.max(0, expiresInMs - Math.min(RENEW_AHEAD_MAX_MS, expiresInMs / 5));
}

export interface RenewingSourceOptions<M extends PlayableMedia> {
  streamUrl: (media: M) => Promise<MediaLink>;
  notify: (text: string, tone?: 'info' | 'error') => void;
  loadError: (media: M, err: unknown) => string;
}

export interface RenewingSourceEvents {
  /** No link could be had to start the media: the player closes. */
  closed: () => void;
  /** A renewal failed (or its link failed before playing a moment): playback stopped until Retry. */
  failed: (failed: boolean) => void;
}

type LoadKind = 'start' | 'renewal';

/**
 * The audio element's source, kept alive across link lifetimes: every link is replaced by a fresh one
 * shortly before it expires (and after an error mid-play), each time at the same position. A link
 * that fails before playback moves past where it started is not renewed again: that would loop on a
 * mix that cannot be played, so the player stops and offers Retry.
 */
export class RenewingSource<M extends PlayableMedia> {
  private el: HTMLAudioElement | null = null;
  private media: M | null = null;
  /** Each load's number: an answer to an older load (another mix was chosen, the player closed) is dropped. */
  private generation = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the current link is due for renewal (ms since the epoch). */
  private renewAt = Infinity;
  /** Where the current link started playing, until playback has moved past it; null once it has. */
  private unproven: number | null = null;
  /** The listener wants sound (they pressed play and not pause since). */
  private wantsPlay = false;
  private lastPosition = 0;

  private current: RenewingSourceOptions<M> | null = null;

  constructor(private readonly events: RenewingSourceEvents) {}

  /** The page's latest options (set after each render). */
  use(options: RenewingSourceOptions<M>): void {
    this.current = options;
  }

  private options(): RenewingSourceOptions<M> {
    if (!this.current) throw new Error('RenewingSource used before its options were set');
    return this.current;
  }

  /** The callback ref of the <audio> element. */
  readonly attach = (el: HTMLAudioElement | null) => {
    this.el = el;
  };

  /** Plays `media` from the start with a fresh link. */
  start(media: M): void {
    this.el?.pause();
    this.lastPosition = 0;
    this.wantsPlay = true;
    this.events.failed(false);
    void this.load(media, 0, 'start');
  }

  /** Play after a pause: a link that is due (or past) its renewal is replaced first. */
  resume(): void {
    const el = this.el;
    if (!el || !this.media) return;
    this.wantsPlay = true;
    if (Date.now() >= this.renewAt) void this.load(this.media, el.ended ? 0 : el.currentTime, 'renewal');
    else void el.play().catch(() => this.options().notify('Click to enable audio playback'));
  }

  pause(): void {
    this.wantsPlay = false;
    this.el?.pause();
  }

  /** After a failure: a fresh link, from where playback stopped. */
  retry(): void {
    if (!this.media) return;
    this.wantsPlay = true;
    this.events.failed(false);
    void this.load(this.media, this.lastPosition, 'renewal');
  }

  /** A seek; past the link's renewal time the seek fetches with a fresh link. */
  seek(seconds: number): void {
    const el = this.el;
    if (!el || !this.media) return;
    this.lastPosition = seconds;
    if (Date.now() >= this.renewAt) return void this.load(this.media, seconds, 'renewal');
    el.currentTime = seconds;
    // Moving the position is not playing: a link not yet proved stays so.
    if (this.unproven !== null) this.unproven = seconds;
  }

  /** The element's position moved (timeupdate). */
  progress(seconds: number): void {
    this.lastPosition = seconds;
    if (this.unproven !== null && seconds >= this.unproven + PROGRESS_S) this.unproven = null;
  }

  /** The element failed (an expired link, a dropped connection, a missing file). */
  error(): void {
    const el = this.el;
    if (!el || !this.media) return;
    if (this.unproven !== null) return this.fail();
    void this.load(this.media, el.currentTime || this.lastPosition, 'renewal');
  }

  close(): void {
    this.stop();
    this.media = null;
    this.el?.pause();
    this.el?.removeAttribute('src');
  }

  /** The page went away. */
  dispose(): void {
    this.stop();
    this.el?.pause();
  }

  private stop(): void {
    this.generation++;
    clearTimeout(this.timer);
    this.renewAt = Infinity;
    this.wantsPlay = false;
  }

  private fail(): void {
    this.stop();
    this.el?.pause();
    this.options().notify('Audio Error - File Not Available', 'error');
    this.events.failed(true);
  }

  /** The renewal timer: a playing element gets its next link now; a paused one when it resumes. */
  private renewDue(): void {
    const el = this.el;
    if (el && this.media && !el.paused) void this.load(this.media, el.currentTime, 'renewal');
  }

  private async load(media: M, at: number, kind: LoadKind): Promise<void> {
    const el = this.el;
    if (!el) return;
    const generation = ++this.generation;
    clearTimeout(this.timer);
    this.media = media;
    this.unproven = at;
    const { streamUrl, notify, loadError } = this.options();
    let link: MediaLink;
    try {
      link = await streamUrl(media);
    } catch (err) {
      if (generation !== this.generation) return;
      if (kind === 'renewal') return this.fail();
      notify(loadError(media, err), 'error');
      this.media = null;
      this.events.closed();
      return;
    }
    if (generation !== this.generation) return;
    const delay = link.expiresInMs === undefined ? Infinity : renewalDelay(link.expiresInMs);
    this.renewAt = Date.now() + delay;
    if (delay !== Infinity) this.timer = setTimeout(() => this.renewDue(), delay);
    el.src = link.url;
    el.currentTime = at;
    if (!this.wantsPlay) return;
    try {
      await el.play();
      if (kind === 'start') notify(`Now Playing: ${media.title}`);
    } catch (err) {
      if (err instanceof DOMException && err.name === 'NotAllowedError') notify('Click to enable audio playback');
    }
  }
}
