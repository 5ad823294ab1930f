import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { pauseElement, useStreamConnection, type StreamCore } from './use-stream-connection';
import { useStreamEvents } from './use-stream-events';
import { useStreamRecovery } from './use-stream-recovery';
import { useStreamTitles } from './use-stream-titles';
import { useStreamVolume } from './use-stream-volume';

/** What the player says while it recovers from a drop (retrying until the stream answers again). */
export const RECONNECTING = 'Reconnecting…';

/** The player is ready, loading or in error; `playing` is tracked beside it. */
export type PlayerState = 'ready' | 'loading' | 'error';

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

/** The spec's four labels, from state and playing, and 'Reconnecting…' while recovering from a drop. */
export function playerLabel(state: PlayerState, playing: boolean, retrying = false): string {
  if (state === 'error') return 'Connection Error';
  if (retrying) return RECONNECTING;
  if (state === 'loading') return 'Connecting...';
  return playing ? 'Live Now' : 'Ready to Stream';
}

/**
 * One live Icecast stream in an <audio> element: the ready/loading/error state machine plus
 * self-recovery after a drop. Playing always (re)loads the source, so a listener who resumes
 * after a pause, or a retry after a drop, joins the live edge instead of stale buffered audio.
 * Its parts: in-band titles, the connection, recovery (retry, stall, online), media events, volume.
 */
export function useStreamPlayer(
  source: StreamSource | undefined,
  options: { onStreamTitle?: (line: string | null) => void; element?: HTMLAudioElement } = {},
): StreamPlayer {
  // The site's player hands in an element it made once, so its listeners are on it from the first render.
  const audioRef = useRef<HTMLAudioElement | null>(options.element ?? null);
  const [state, setState] = useState<PlayerState>('ready');
  const [playing, setPlaying] = useState(false);
  const wantPlayingRef = useRef(false);
  const ownPauseRef = useRef(false);
  const core: StreamCore = { audioRef, wantPlayingRef, setState, setPlaying, ownPauseRef };

  const titles = useStreamTitles(options.onStreamTitle);
  const { stop: stopTitles } = titles;
  const { sourceRef, connect, cancel, onResolveFailureRef, onDropRef } = useStreamConnection(core, source, titles);
  const recovery = useStreamRecovery(core, connect, stopTitles);
  const { giveUp, scheduleRetry, clearRetry, clearStall } = recovery;
  useStreamEvents(core, recovery);
  const volume = useStreamVolume(audioRef);

  // Signed out or below the tier: retrying cannot help. Anything else (network, server) is a drop.
  useLayoutEffect(() => {
    onResolveFailureRef.current = (err) => (isRefusal(err) ? giveUp() : scheduleRetry());
    onDropRef.current = scheduleRetry;
  }, [onResolveFailureRef, onDropRef, giveUp, scheduleRetry]);

  const play = useCallback(() => {
    if (!sourceRef.current) return;
    wantPlayingRef.current = true;
    clearRetry();
    connect();
  }, [clearRetry, connect, sourceRef]);

  const pause = useCallback(() => {
    wantPlayingRef.current = false;
    cancel();
    stopTitles();
    clearRetry();
    clearStall();
    pauseElement({ audioRef, ownPauseRef });
    setPlaying(false);
    setState((s) => (s === 'loading' ? 'ready' : s));
  }, [cancel, clearRetry, clearStall, stopTitles]);

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
    if (wantPlayingRef.current || playing) pause();
    else play();
  }, [pause, play, playing]);

  // Unmounting stops the download.
  useEffect(
    () => () => {
      const audio = audioRef.current;
      if (audio) {
        audio.pause();
        audio.removeAttribute('src');
      }
    },
    [],
  );

  return { audioRef, state, playing, retrying: recovery.retrying, ...volume, play, pause, toggle, stop };
}
