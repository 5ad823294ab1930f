import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLatest } from '../../../lib/use-latest';
import { useChannel } from '../api/get-channels';
import { useMediaSession } from '../hooks/use-media-session';
import { usePauseForPopOut } from '../hooks/use-pop-out-handoff';
import { usePlayerKeys } from '../hooks/use-player-keys';
import { RadioContext, type PlayerTarget, type Radio } from '../hooks/use-radio';
import { useShownNowPlaying } from '../hooks/use-shown-now-playing';
import { useSleepTimer } from '../hooks/use-sleep-timer';
import { publicSource, useStreamPlayer } from '../hooks/use-stream-player';
import { FREE_STREAM_CHANNEL, FREE_STREAM_NAME } from '../lib/fallbacks';
import { heardTitles, splitStreamTitle } from '../lib/heard-titles';
import { FREE_PLAYER } from '../lib/pop-out';

/** The free stream as a player target, once the channel list names its mount. */
export function useFreeStreamTarget(): PlayerTarget | undefined {
  const { data: channel } = useChannel(FREE_STREAM_CHANNEL);
  const url = channel?.freeStreamUrl;
  const colour = channel?.colour;
  const quality = channel?.freeBitrateLabel ?? null;
  return useMemo(
    () =>
      url
        ? { player: FREE_PLAYER, channel: FREE_STREAM_CHANNEL, name: FREE_STREAM_NAME, quality, accent: colour ?? '#8b5cf6', source: publicSource(url) }
        : undefined,
    [url, colour, quality],
  );
}

function createAudio(): HTMLAudioElement {
  const audio = document.createElement('audio');
  audio.preload = 'none';
  return audio;
}

/** The element is in the document while there is something to play (a gated pop-out has none). */
function placeAudio(audio: HTMLAudioElement, host: HTMLElement | null): void {
  if (host) host.appendChild(audio);
  else audio.remove();
}

/** The titles this page hears in the stream go to the channel playing them (heard-titles.ts). */
function useHeardTitles(targetRef: React.RefObject<PlayerTarget | undefined>) {
  const heardChannel = useRef<string | undefined>(undefined);
  return useCallback(
    (line: string | null) => {
      const target = targetRef.current;
      if (line === null || !target) {
        if (heardChannel.current) heardTitles.set(heardChannel.current, null);
        heardChannel.current = undefined;
        return;
      }
      const heard = splitStreamTitle(line, target.name);
      heardChannel.current = target.channel;
      heardTitles.set(target.channel, heard && { ...heard, album: '', current_track: line, updatedAt: new Date().toISOString() });
    },
    [targetRef],
  );
}

/**
 * The site's one player, kept by the app's layout while the listener moves between pages: one
 * <audio> element (made once, in the document while there is something to play), the stream and its
 * recovery, one sleep timer, Media Session, Space/K and the pop-out handoff. `freeByDefault`: until
 * a page offers its own stream, the free stream is the one to play (the site; not the pop-outs).
 */
export function RadioProvider({ freeByDefault = false, children }: { freeByDefault?: boolean; children: ReactNode }) {
  const free = useFreeStreamTarget();
  const [chosen, setChosen] = useState<PlayerTarget | undefined>(undefined);
  const target = chosen ?? (freeByDefault ? free : undefined);
  const targetRef = useLatest(target);

  const [element] = useState(createAudio);
  const host = useRef<HTMLDivElement>(null);
  const hasTarget = target !== undefined;
  useLayoutEffect(() => placeAudio(element, hasTarget ? host.current : null), [element, hasTarget]);

  const onStreamTitle = useHeardTitles(targetRef);
  const stream = useStreamPlayer(target?.source, { onStreamTitle, element });
  const { play, pause, stop, toggle, playing, retrying } = stream;
  const busy = useLatest(playing || retrying || stream.state === 'loading');

  // A switch while the stream plays is made by the connection itself (a new source key); from
  // silence, Play waits for the new source to be the current one. A passive effect, after the
  // connection's own one for the new key: one connection, not two racing for the element.
  const pendingPlay = useRef(false);
  const targetKey = target ? `${target.player} ${target.source.key}` : undefined;
  useEffect(() => {
    if (!pendingPlay.current) return;
    pendingPlay.current = false;
    play();
  }, [targetKey, play]);

  const offer = useCallback(
    (next: PlayerTarget) => {
      if (!busy.current) setChosen(next);
    },
    [busy],
  );
  const playTarget = useCallback(
    (next: PlayerTarget) => {
      const current = targetRef.current;
      if (current && current.player === next.player && current.source.key === next.source.key) {
        play();
        return;
      }
      pendingPlay.current = !busy.current;
      setChosen(next);
    },
    [targetRef, busy, play],
  );

  const sleep = useSleepTimer(pause);
  const shown = useShownNowPlaying(target?.channel ?? FREE_STREAM_CHANNEL, target?.name ?? FREE_STREAM_NAME, stream, { passive: true });
  useMediaSession(hasTarget, shown, { play, pause, stop });
  usePauseForPopOut(target?.player, pause);
  usePlayerKeys(toggle);

  const radio = useMemo<Radio>(() => ({ stream, target, offer, playTarget, sleep }), [stream, target, offer, playTarget, sleep]);
  return (
    <RadioContext.Provider value={radio}>
      {children}
      {/* After the page: a page's own media element (a VIP mix) comes first in the document. */}
      <div ref={host} hidden data-testid="radio-audio" />
    </RadioContext.Provider>
  );
}
