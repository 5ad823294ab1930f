import { createContext, useContext } from 'react';
import type { StreamPlayer, StreamSource } from './use-stream-player';
import type { useSleepTimer } from './use-sleep-timer';

/** One stream the site's player can play: a page's channel, the free stream, a pop-out's channel. */
export interface PlayerTarget {
  /** FREE_PLAYER for the free stream, else the channel id; pop-out messages name it. */
  player: string;
  /** The channel whose now-playing this stream's titles are. */
  channel: string;
  /** Station line, e.g. 'DHR1 Premium'. */
  name: string;
  /** e.g. '320kbps'. */
  quality: string | null;
  /** Channel colour for the glow, the art and the slider. */
  accent: string;
  source: StreamSource;
}

export type SleepTimer = ReturnType<typeof useSleepTimer>;

/**
 * The site's one player (RadioProvider, in the app's layouts): one <audio> element, one stream, one
 * sleep timer, kept while the listener moves between pages. Pages and the bar are views of it.
 */
export interface Radio {
  stream: StreamPlayer;
  /** What the player plays, or would play on Play; undefined until the channel list has loaded. */
  target: PlayerTarget | undefined;
  /** A page's own stream, shown in the bar while nothing plays. */
  offer: (target: PlayerTarget) => void;
  /** Plays `target`, switching over from whatever played before. */
  playTarget: (target: PlayerTarget) => void;
  sleep: SleepTimer;
}

export const RadioContext = createContext<Radio | null>(null);

/** The site's player; only under RadioProvider. */
export function useRadio(): Radio {
  const radio = useContext(RadioContext);
  if (!radio) throw new Error('useRadio outside RadioProvider');
  return radio;
}

/** Whether `target` is the stream the player holds now. */
export function isCurrent(radio: Radio, target: PlayerTarget | undefined): boolean {
  return target !== undefined && radio.target?.player === target.player && radio.target.source.key === target.source.key;
}
