import { useEffect, useRef } from 'react';
import { useLatest } from '../../../lib/use-latest';
import { isPauseParentMessage } from '../lib/pop-out';

/** A pop-out of `player` that took over pauses the site's player (one stream plays at a time). */
export function usePauseForPopOut(player: string | undefined, pause: () => void): void {
  useEffect(() => {
    if (player === undefined) return;
    const onMessage = (e: MessageEvent) => {
      if (e.origin !== window.location.origin) return;
      if (isPauseParentMessage(e.data, player)) pause();
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [player, pause]);
}

/**
 * The pop-out's side: `onPlaying` is told each time playback starts (the pop-out tells its opener),
 * and the pop-out plays once `autoPlay` turns true (its source is there).
 */
export function usePopOutStart(playing: boolean, autoPlay: boolean, play: () => void, onPlaying: (() => void) | undefined): void {
  const onPlayingRef = useLatest(onPlaying);
  useEffect(() => {
    if (playing) onPlayingRef.current?.();
  }, [playing, onPlayingRef]);

  const autoPlayed = useRef(false);
  useEffect(() => {
    if (autoPlay && !autoPlayed.current) {
      autoPlayed.current = true;
      play();
    }
  }, [autoPlay, play]);
}
