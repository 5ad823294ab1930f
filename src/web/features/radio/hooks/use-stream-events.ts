import { useEffect } from 'react';
import type { StreamCore } from './use-stream-connection';
import type { StreamRecovery } from './use-stream-recovery';

/** The <audio> element's media events drive the player's state; drops and stalls go to recovery. */
export function useStreamEvents(core: StreamCore, recovery: StreamRecovery): void {
  const { audioRef, wantPlayingRef, setState, setPlaying, ownPauseRef } = core;
  const { clearRetry, clearStall, scheduleRetry, watchStall } = recovery;
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    // A load drops the element's pending events, an own `pause` among them.
    const onLoadStart = () => {
      ownPauseRef.current = false;
      onLoading();
    };
    const onLoading = () => {
      if (!wantPlayingRef.current) return;
      setState('loading');
      watchStall(audio);
    };
    const onReady = () => {
      clearStall();
      setState('ready');
    };
    const onPlaying = () => {
      ownPauseRef.current = false;
      clearStall();
      clearRetry();
      setState('ready');
      setPlaying(true);
    };
    const onPause = () => {
      const own = ownPauseRef.current;
      ownPauseRef.current = false;
      clearStall();
      setPlaying(false);
      // A pause from outside (headphones unplugged, OS controls) is the listener's intent too; the
      // player's own pause already said so, and a Play may have come since. The pause that precedes
      // 'ended' is a drop and is retried by onEnded.
      if (!own && !audio.ended && !audio.error) {
        wantPlayingRef.current = false;
        clearRetry();
      }
      if (!wantPlayingRef.current) setState((s) => (s === 'error' ? s : 'ready'));
    };
    const onError = () => {
      // An element with no source (after giving up or before the first play) reports nothing useful.
      if (!audio.getAttribute('src')) return;
      setPlaying(false);
      if (wantPlayingRef.current) scheduleRetry();
      else setState('error');
    };
    // A live stream "ends" when the server closes it: that is a drop, not the end of the music.
    const onEnded = () => {
      setPlaying(false);
      scheduleRetry();
    };
    const handlers = { loadstart: onLoadStart, waiting: onLoading, canplay: onReady, playing: onPlaying, pause: onPause, error: onError, ended: onEnded };
    for (const [type, handler] of Object.entries(handlers)) audio.addEventListener(type, handler);
    return () => {
      for (const [type, handler] of Object.entries(handlers)) audio.removeEventListener(type, handler);
    };
  }, [audioRef, wantPlayingRef, ownPauseRef, setState, setPlaying, clearRetry, clearStall, scheduleRetry, watchStall]);
}
