import { useEffect, useRef } from 'react';
import { useLatest } from '../../../lib/use-latest';
import { isPauseParentMessage } from '../lib/pop-out';

/**
 * One player plays at a time between a page and its pop-out: a pop-out of `player` that took over
 * pauses this one, `onPlaying` is told each time playback starts (the pop-out tells its opener),
 * and the pop-out plays once `autoPlay` turns true (its source is there).
 */
export function usePopOutHandoff(
  player: string,
  stream: { playing: boolean; play: () => void; pause: () => void },
  autoPlay: boolean,
  onPlaying: (() => void) | undefined,
): void {
  const { playing, play, pause } = stream;
  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      if (e.origin !== window.location.origin) return;
      if (isPauseParentMessage(e.data, player)) pause();
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [player, pause]);

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
