import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLatest } from '../../../lib/use-latest';
import type * as IcyModuleNs from '../lib/icy-playback';
import type { IcyPlayback } from '../lib/icy-playback';

type IcyModule = typeof IcyModuleNs;
import { MINUTE_MS } from '../../../../contracts/time';

/** The player is ready, loading or in error; `playing` is tracked beside it. */
export type PlayerState = 'ready' | 'loading' | 'error';

/** First retry within 2 s, then backing off to at most every 30 s, for at least 5 minutes. */
export const RETRY_FIRST_MS = 1_000;
export const RETRY_MAX_MS = 30_000;
export const RETRY_GIVE_UP_MS = 5 * MINUTE_MS + 30_000;
/** A stream that has been buffering this long while it should play is reconnected. */
const STALL_MS = 15_000;

export const DEFAULT_VOLUME = 75;

/**
 * What the player connects to. `resolve` is asked before every connection (first play, each
 * reconnect, a switch): a premium mount answers with a fresh short-lived token each time.
 */
export interface StreamSource {
  /** Names the stream; a new key while playing switches over. */
  key: string;
  resolve: (signal: AbortSignal) => Promise<string>;
}

/** A public mount: always the same URL. */
export function publicSource(url: string): StreamSource {
  return { key: url, resolve: () => Promise.resolve(url) };
}

/** Stream origins that refused the in-band title request in this tab (no CORS preflight): played directly. */
const ICY_REFUSED_KEY = 'dhr.icy-refused';

function icyRefused(url: string): boolean {
  try {
    return (sessionStorage.getItem(ICY_REFUSED_KEY) ?? '').split(' ').includes(new URL(url, location.href).origin);
  } catch {
    return false;
  }
}

function rememberIcyRefused(url: string): void {
  try {
    const origin = new URL(url, location.href).origin;
    sessionStorage.setItem(ICY_REFUSED_KEY, `${sessionStorage.getItem(ICY_REFUSED_KEY) ?? ''} ${origin}`.trim());
  } catch {
    // storage off: try again next time
  }
}

/** In-band titles need Media Source Extensions that take MP3 (not Safari on iPhone): elsewhere SSE and polling carry the titles. */
function canReadIcy(url: string): boolean {
  return typeof MediaSource !== 'undefined' && MediaSource.isTypeSupported('audio/mpeg') && !icyRefused(url);
}

/** Whether a failure to get a stream URL is final (signed out, tier too low) rather than worth a retry. */
function isRefusal(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  return status === 401 || status === 403 || status === 404;
}

export interface StreamPlayer {
  audioRef: React.RefObject<HTMLAudioElement | null>;
  state: PlayerState;
  playing: boolean;
  /** Waiting to retry after a drop: the listener may stop it (Play is otherwise disabled while loading). */
  retrying: boolean;
  volume: number;
  muted: boolean;
  play: () => void;
  pause: () => void;
  toggle: () => void;
  /** Media Session "stop": pause and rewind. */
  stop: () => void;
  setVolume: (v: number) => void;
  toggleMute: () => void;
}

/** The spec's four labels, from state and playing. */
export function playerLabel(state: PlayerState, playing: boolean): string {
  if (state === 'error') return 'Connection Error';
  if (state === 'loading') return 'Connecting...';
  return playing ? 'Live Now' : 'Ready to Stream';
}

/**
 * One live Icecast stream in an <audio> element: the ready/loading/error state machine plus
 * self-recovery after a drop. Playing always (re)loads the source, so a listener who resumes
 * after a pause, or a retry after a drop, joins the live edge instead of stale buffered audio.
 */
export function useStreamPlayer(source: StreamSource | undefined, options: { onStreamTitle?: (line: string | null) => void } = {}): StreamPlayer {
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const [state, setState] = useState<PlayerState>('ready');
  const [playing, setPlaying] = useState(false);
  const [retrying, setRetrying] = useState(false);
  const [volume, setVolumeState] = useState(DEFAULT_VOLUME);
  const [muted, setMuted] = useState(false);

  // The listener's intent; errors while it is false are not retried.
  const wantPlaying = useRef(false);
  const retry = useRef<{ timer: ReturnType<typeof setTimeout> | undefined; attempt: number; since: number | undefined }>({
    timer: undefined,
    attempt: 0,
    since: undefined,
  });
  const stallTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const sourceRef = useLatest(source);
  // The URL request of the connection in progress; a newer connection or a pause cancels it.
  const resolving = useRef<AbortController | undefined>(undefined);
  // What a failed URL request does, set once the callbacks below exist.
  const onResolveFailure = useRef<(err: unknown) => void>(() => undefined);
  // The in-band title reader of the current connection, if any.
  const icy = useRef<IcyPlayback | undefined>(undefined);
  const onStreamTitle = useLatest(options.onStreamTitle);
  // What a dropped in-band connection does, set once the callbacks below exist.
  const onIcyDrop = useRef<() => void>(() => undefined);

  const stopIcy = useCallback(() => {
    if (!icy.current) return;
    icy.current.stop();
    icy.current = undefined;
    onStreamTitle.current?.(null);
  }, [onStreamTitle]);

  const clearRetry = useCallback(() => {
    clearTimeout(retry.current.timer);
    retry.current = { timer: undefined, attempt: 0, since: undefined };
    setRetrying(false);
  }, []);
  const clearStall = useCallback(() => {
    clearTimeout(stallTimer.current);
    stallTimer.current = undefined;
  }, []);

  /** Asks for the stream URL (a fresh token for premium mounts), then loads it afresh and plays it: the live edge. */
  const connect = useCallback(() => {
    const audio = audioRef.current;
    const current = sourceRef.current;
    if (!audio || !current) return;
    setState('loading');
    resolving.current?.abort();
    const request = new AbortController();
    resolving.current = request;
    stopIcy();
    current.resolve(request.signal).then(
      async (url) => {
        if (request.signal.aborted || !wantPlaying.current) return;
        audio.dataset.stream = url;
        if (onStreamTitle.current && canReadIcy(url)) {
          let reader: IcyModule | undefined;
          try {
            reader = await import('../lib/icy-playback');
            const playback = await reader.startIcyPlayback(audio, url, {
              onTitle: (line) => onStreamTitle.current?.(line),
              onDrop: () => {
                if (icy.current === playback) onIcyDrop.current();
              },
            });
            if (request.signal.aborted || !wantPlaying.current) {
              playback.stop();
              return;
            }
            icy.current = playback;
          } catch (err) {
            if (request.signal.aborted || !wantPlaying.current) return;
            if (reader && err instanceof reader.IcyUnavailable && err.lasting) rememberIcyRefused(url);
            audio.src = url;
            audio.load();
          }
        } else {
          audio.src = url;
          audio.load();
        }
        resolving.current = undefined;
        audio.play().catch((err: unknown) => {
          const name = err instanceof DOMException ? err.name : '';
          // AbortError: a newer load replaced this one. NotSupportedError: the error event handles it.
          if (name === 'NotAllowedError') {
            wantPlaying.current = false;
            setState('ready');
            setPlaying(false);
          }
        });
      },
      (err: unknown) => {
        if (request.signal.aborted) return;
        resolving.current = undefined;
        onResolveFailure.current(err);
      },
    );
  }, [sourceRef, stopIcy, onStreamTitle]);

  const giveUp = useCallback(() => {
    stopIcy();
    clearRetry();
    clearStall();
    wantPlaying.current = false;
    const audio = audioRef.current;
    if (audio) {
      audio.pause();
      audio.removeAttribute('src');
      audio.load();
    }
    setPlaying(false);
    setState('error');
  }, [clearRetry, clearStall, stopIcy]);

  /** The stream dropped while the listener wants it: retry with backoff, or give up after the window. */
  const scheduleRetry = useCallback(() => {
    if (!wantPlaying.current) return;
    const r = retry.current;
    if (r.timer !== undefined) return;
    const now = Date.now();
    r.since ??= now;
    if (now - r.since >= RETRY_GIVE_UP_MS) {
      giveUp();
      return;
    }
    const delay = Math.min(RETRY_FIRST_MS * 2 ** r.attempt, RETRY_MAX_MS);
    r.attempt += 1;
    setState('loading');
    setRetrying(true);
    r.timer = setTimeout(() => {
      r.timer = undefined;
      if (wantPlaying.current) connect();
    }, delay);
  }, [connect, giveUp]);

  // Signed out or below the tier: retrying cannot help. Anything else (network, server) is a drop.
  useLayoutEffect(() => {
    onResolveFailure.current = (err) => (isRefusal(err) ? giveUp() : scheduleRetry());
    onIcyDrop.current = scheduleRetry;
  }, [giveUp, scheduleRetry]);

  const play = useCallback(() => {
    if (!sourceRef.current) return;
    wantPlaying.current = true;
    clearRetry();
    connect();
  }, [clearRetry, connect, sourceRef]);

  const pause = useCallback(() => {
    wantPlaying.current = false;
    resolving.current?.abort();
    stopIcy();
    clearRetry();
    clearStall();
    audioRef.current?.pause();
    setPlaying(false);
    setState((s) => (s === 'loading' ? 'ready' : s));
  }, [clearRetry, clearStall, stopIcy]);

  const stop = useCallback(() => {
    pause();
    const audio = audioRef.current;
    if (audio && audio.readyState > 0) {
      try {
        audio.currentTime = 0;
      } catch {
        // live streams may refuse seeking; pausing is what matters
      }
    }
  }, [pause]);

  const toggle = useCallback(() => {
    if (wantPlaying.current || playing) pause();
    else play();
  }, [pause, play, playing]);

  const setVolume = useCallback((v: number) => {
    const clamped = Math.max(0, Math.min(100, Math.round(v)));
    setVolumeState(clamped);
    if (clamped > 0) setMuted(false);
  }, []);
  const toggleMute = useCallback(() => setMuted((m) => !m), []);

  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    audio.volume = volume / 100;
    audio.muted = muted;
  }, [volume, muted]);

  // Media events drive the state.
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    const onLoading = () => {
      if (!wantPlaying.current) return;
      setState('loading');
      clearStall();
      stallTimer.current = setTimeout(() => {
        if (wantPlaying.current && !audio.paused && audio.readyState < 3) scheduleRetry();
      }, STALL_MS);
    };
    const onReady = () => {
      clearStall();
      setState('ready');
    };
    const onPlaying = () => {
      clearStall();
      clearRetry();
      setState('ready');
      setPlaying(true);
    };
    const onPause = () => {
      clearStall();
      setPlaying(false);
      // A pause from outside (headphones unplugged, OS controls) is the listener's intent too;
      // the pause that precedes 'ended' is a drop and is retried by onEnded.
      if (!audio.ended && !audio.error) {
        wantPlaying.current = false;
        clearRetry();
      }
      if (!wantPlaying.current) setState((s) => (s === 'error' ? s : 'ready'));
    };
    const onError = () => {
      // An element with no source (after giving up or before the first play) reports nothing useful.
      if (!audio.getAttribute('src')) return;
      setPlaying(false);
      if (wantPlaying.current) scheduleRetry();
      else setState('error');
    };
    // A live stream "ends" when the server closes it: that is a drop, not the end of the music.
    const onEnded = () => {
      setPlaying(false);
      scheduleRetry();
    };
    audio.addEventListener('loadstart', onLoading);
    audio.addEventListener('waiting', onLoading);
    audio.addEventListener('canplay', onReady);
    audio.addEventListener('playing', onPlaying);
    audio.addEventListener('pause', onPause);
    audio.addEventListener('error', onError);
    audio.addEventListener('ended', onEnded);
    return () => {
      audio.removeEventListener('loadstart', onLoading);
      audio.removeEventListener('waiting', onLoading);
      audio.removeEventListener('canplay', onReady);
      audio.removeEventListener('playing', onPlaying);
      audio.removeEventListener('pause', onPause);
      audio.removeEventListener('error', onError);
      audio.removeEventListener('ended', onEnded);
    };
  }, [clearRetry, clearStall, scheduleRetry]);

  // Back online: retry at once instead of waiting out the backoff.
  useEffect(() => {
    const onOnline = () => {
      if (!wantPlaying.current) return;
      clearTimeout(retry.current.timer);
      retry.current.timer = undefined;
      const audio = audioRef.current;
      if (audio && (audio.paused || audio.readyState < 3)) connect();
    };
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [connect]);

  // A new stream while playing switches over; unmounting stops the download.
  const sourceKey = source?.key;
  useEffect(() => {
    if (wantPlaying.current) connect();
  }, [sourceKey, connect]);
  useEffect(
    () => () => {
      resolving.current?.abort();
      icy.current?.stop();
      clearTimeout(retry.current.timer);
      clearTimeout(stallTimer.current);
      const audio = audioRef.current;
      if (audio) {
        audio.pause();
        audio.removeAttribute('src');
      }
    },
    [],
  );

  return { audioRef, state, playing, retrying, volume, muted, play, pause, toggle, stop, setVolume, toggleMute };
}
