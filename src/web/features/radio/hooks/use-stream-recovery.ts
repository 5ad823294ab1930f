import { useCallback, useEffect, useRef, useState } from 'react';
import { MINUTE_MS } from '../../../../contracts/time';
import { pauseElement, type StreamCore } from './use-stream-connection';

/**
 * Back within seconds: for the first RETRY_FAST_FOR_MS of an outage a retry every 1–2 s (jittered, so
 * a station's listeners do not all knock at once), then backing off gently to at most every
 * RETRY_MAX_MS, for 5½ minutes in all.
 */
export const RETRY_FIRST_MS = 1_000;
export const RETRY_FAST_FOR_MS = 30_000;
export const RETRY_MAX_MS = 10_000;
export const RETRY_GIVE_UP_MS = 5 * MINUTE_MS + 30_000;

/** The wait before the next retry, `elapsed` ms into the outage, `slow` retries after the fast window. */
export function retryDelay(elapsed: number, slow: number, random: () => number = Math.random): number {
  if (elapsed < RETRY_FAST_FOR_MS) return Math.round(RETRY_FIRST_MS * (1 + random()));
  const base = Math.min(2 * RETRY_FIRST_MS * 1.5 ** slow, RETRY_MAX_MS);
  return Math.round(base * (0.8 + 0.4 * random()));
}
/** A stream that has been buffering this long while it should play is reconnected. */
const STALL_MS = 15_000;

export interface StreamRecovery {
  /** Waiting to retry after a drop. */
  retrying: boolean;
  /** The stream dropped while the listener wants it: retry with backoff, or give up after the window. */
  scheduleRetry: () => void;
  /** Stops trying: the player shows the connection error. */
  giveUp: () => void;
  clearRetry: () => void;
  /** Reconnects the stream if it is still buffering after STALL_MS while it should play. */
  watchStall: (audio: HTMLAudioElement) => void;
  clearStall: () => void;
}

/** Self-recovery of a dropped or stalled stream, and at once when the device is back online. */
export function useStreamRecovery(core: StreamCore, connect: () => void, stopTitles: () => void): StreamRecovery {
  const { audioRef, wantPlayingRef, setState, setPlaying, ownPauseRef } = core;
  const [retrying, setRetrying] = useState(false);
  const retry = useRef<{ timer: ReturnType<typeof setTimeout> | undefined; attempt: number; since: number | undefined }>({
    timer: undefined,
    attempt: 0,
    since: undefined,
  });
  const stallTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const clearRetry = useCallback(() => {
    clearTimeout(retry.current.timer);
    retry.current = { timer: undefined, attempt: 0, since: undefined };
    setRetrying(false);
  }, []);
  const clearStall = useCallback(() => {
    clearTimeout(stallTimer.current);
    stallTimer.current = undefined;
  }, []);

  const giveUp = useCallback(() => {
    stopTitles();
    clearRetry();
    clearStall();
    wantPlayingRef.current = false;
    const audio = audioRef.current;
    if (audio) {
      pauseElement({ audioRef, ownPauseRef });
      audio.removeAttribute('src');
      audio.load();
    }
    setPlaying(false);
    setState('error');
  }, [audioRef, wantPlayingRef, ownPauseRef, setState, setPlaying, clearRetry, clearStall, stopTitles]);

  const scheduleRetry = useCallback(() => {
    if (!wantPlayingRef.current) return;
    const r = retry.current;
    if (r.timer !== undefined) return;
    const now = Date.now();
    r.since ??= now;
    if (now - r.since >= RETRY_GIVE_UP_MS) {
      giveUp();
      return;
    }
    const elapsed = now - r.since;
    const delay = retryDelay(elapsed, r.attempt);
    if (elapsed >= RETRY_FAST_FOR_MS) r.attempt += 1;
    setState('loading');
    setRetrying(true);
    r.timer = setTimeout(() => {
      r.timer = undefined;
      if (wantPlayingRef.current) connect();
    }, delay);
  }, [wantPlayingRef, setState, connect, giveUp]);

  const watchStall = useCallback(
    (audio: HTMLAudioElement) => {
      clearStall();
      stallTimer.current = setTimeout(() => {
        if (wantPlayingRef.current && !audio.paused && audio.readyState < 3) scheduleRetry();
      }, STALL_MS);
    },
    [wantPlayingRef, clearStall, scheduleRetry],
  );

  // Back online: retry at once instead of waiting out the backoff.
  useEffect(() => {
    const onOnline = () => {
      if (!wantPlayingRef.current) return;
      clearTimeout(retry.current.timer);
      retry.current.timer = undefined;
      const audio = audioRef.current;
      if (audio && (audio.paused || audio.readyState < 3)) connect();
    };
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [audioRef, wantPlayingRef, connect]);

  // Unmounting ends the waits.
  useEffect(
    () => () => {
      clearTimeout(retry.current.timer);
      clearTimeout(stallTimer.current);
    },
    [],
  );

  return { retrying, scheduleRetry, giveUp, clearRetry, watchStall, clearStall };
}
