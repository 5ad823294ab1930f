import { useCallback, useEffect, useRef, type Dispatch, type RefObject, type SetStateAction } from 'react';
import { useLatest } from '../../../lib/use-latest';
import type { PlayerState, StreamSource } from './use-stream-player';
import type { StreamTitles } from './use-stream-titles';

/** What the parts of the stream player share: the element, the listener's intent and the state they set. */
export interface StreamCore {
  audioRef: RefObject<HTMLAudioElement | null>;
  /** The listener's intent; errors while it is false are not retried. */
  wantPlayingRef: RefObject<boolean>;
  setState: Dispatch<SetStateAction<PlayerState>>;
  setPlaying: Dispatch<SetStateAction<boolean>>;
  /** The player paused the element itself and its `pause` event has not come yet (see pauseElement). */
  ownPauseRef: RefObject<boolean>;
}

/**
 * Pauses the element for the player itself. The browser tells of it later, in a task of its own,
 * possibly after the listener's next Play: that `pause` event must not be taken for a pause from
 * outside (headphones, OS controls) and undo the newer Play. A load drops the event unsent.
 */
export function pauseElement(core: Pick<StreamCore, 'audioRef' | 'ownPauseRef'>): void {
  const audio = core.audioRef.current;
  if (!audio || audio.paused) return;
  core.ownPauseRef.current = true;
  audio.pause();
}

export interface StreamConnection {
  /** The latest source. */
  sourceRef: RefObject<StreamSource | undefined>;
  /** Asks for the stream URL (a fresh token for premium mounts), then loads it afresh and plays it: the live edge. */
  connect: () => void;
  /** Cancels the URL request in progress (a pause). */
  cancel: () => void;
  /** What a failed URL request does, set once recovery exists. */
  onResolveFailureRef: RefObject<(err: unknown) => void>;
  /** What a dropped in-band connection does, set once recovery exists. */
  onDropRef: RefObject<() => void>;
}

/** Connecting to `source`: each connection resolves its URL afresh and cancels the one before. */
export function useStreamConnection(core: StreamCore, source: StreamSource | undefined, titles: StreamTitles): StreamConnection {
  const { audioRef, wantPlayingRef, setState, setPlaying } = core;
  const { load, stop: stopTitles } = titles;
  const sourceRef = useLatest(source);
  // The URL request of the connection in progress; a newer connection or a pause cancels it.
  const resolving = useRef<AbortController | undefined>(undefined);
  const onResolveFailureRef = useRef<(err: unknown) => void>(() => undefined);
  const onDropRef = useRef<() => void>(() => undefined);

  const connect = useCallback(() => {
    const audio = audioRef.current;
    const current = sourceRef.current;
    if (!audio || !current) return;
    setState('loading');
    resolving.current?.abort();
    const request = new AbortController();
    resolving.current = request;
    stopTitles();
    const stale = () => request.signal.aborted || !wantPlayingRef.current;
    current.resolve(request.signal).then(
      async (url) => {
        if (stale()) return;
        audio.dataset.stream = url;
        if (!(await load(audio, url, { stale, onDrop: () => onDropRef.current() }))) return;
        resolving.current = undefined;
        audio.play().catch((err: unknown) => {
          const name = err instanceof DOMException ? err.name : '';
          // AbortError: a newer load replaced this one. NotSupportedError: the error event handles it.
          if (name === 'NotAllowedError') {
            wantPlayingRef.current = false;
            setState('ready');
            setPlaying(false);
          }
        });
      },
      (err: unknown) => {
        if (request.signal.aborted) return;
        resolving.current = undefined;
        onResolveFailureRef.current(err);
      },
    );
  }, [audioRef, sourceRef, wantPlayingRef, setState, setPlaying, load, stopTitles]);

  const cancel = useCallback(() => resolving.current?.abort(), []);

  // A new stream while playing switches over; unmounting cancels the request.
  const sourceKey = source?.key;
  useEffect(() => {
    if (wantPlayingRef.current) connect();
  }, [sourceKey, connect, wantPlayingRef]);
  useEffect(() => () => resolving.current?.abort(), []);

  return { sourceRef, connect, cancel, onResolveFailureRef, onDropRef };
}
