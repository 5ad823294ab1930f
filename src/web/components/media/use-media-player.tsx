import { useCallback, useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { RenewingSource, type MediaLink } from './renewing-source';

export type { MediaLink } from './renewing-source';

/** What the player needs of anything it plays (a VIP mix, or any other recording). */
export interface PlayableMedia {
  id: string;
  title: string;
  artist: string;
  /** Seconds, as the library knows it; the file's own length replaces it once loaded. */
  duration: number;
}

export interface MediaPlayerOptions<M extends PlayableMedia> {
  /**
   * A fresh stream link for `media`. Links live minutes: the player asks for the next one before each
   * expires (and after an error mid-play) and carries on at the same position, as often as needed.
   */
  streamUrl: (media: M) => Promise<MediaLink>;
  /** Tells the listener what happened ('Now Playing: …', 'Paused: …', errors). */
  notify: (text: string, tone?: 'info' | 'error') => void;
  /** The message when no stream link could be had for `media`. */
  loadError: (media: M, err: unknown) => string;
}

export interface MediaPlayer<M extends PlayableMedia> {
  current: M | null;
  playing: boolean;
  position: number;
  duration: number;
  /** A link could not be renewed (or failed at once): playback stopped until `retry`. */
  failed: boolean;
  /** Plays `media` from the start (or toggles play/pause when it is the current one). */
  play: (media: M) => void;
  /** Play/pause of the current media. */
  toggle: () => void;
  /** After a failure: a fresh link, from where playback stopped. */
  retry: () => void;
  seek: (seconds: number) => void;
  close: () => void;
  /** The one <audio> element, to render once on the page (MediaPlayerView does). */
  audioElement: ReactNode;
}

/**
 * One audio element for a page of recordings: asks for a stream link when a recording starts and a
 * fresh one before each expires (renewing-source.ts), keeps position and length for the bar, and
 * stops when the page goes away. Access rules stay with the caller: it calls `play` only for what the
 * listener may hear.
 */
export function useMediaPlayer<M extends PlayableMedia>(options: MediaPlayerOptions<M>): MediaPlayer<M> {
  const [current, setCurrent] = useState<M | null>(null);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const [duration, setDuration] = useState(0);
  const [failed, setFailed] = useState(false);
  const [source] = useState(() => new RenewingSource<M>({ closed: () => setCurrent(null), failed: setFailed }));
  const { notify } = options;

  // Written after render (rendering stays pure), before any effect or event reads it.
  useLayoutEffect(() => source.use(options));
  useEffect(() => () => source.dispose(), [source]);
  const attach = useCallback((el: HTMLAudioElement | null) => source.attach(el), [source]);

  function toggle() {
    if (!current) return;
    if (failed) return source.retry();
    if (playing) {
      source.pause();
      notify(`Paused: ${current.title}`);
    } else source.resume();
  }

  function play(media: M) {
    if (current?.id === media.id) return toggle();
    setCurrent(media);
    setPosition(0);
    setDuration(0);
    source.start(media);
  }

  function close() {
    source.close();
    setCurrent(null);
    setPlaying(false);
    setFailed(false);
  }

  return {
    current,
    playing,
    position,
    duration,
    failed,
    play,
    toggle,
    retry: () => source.retry(),
    seek: (seconds) => source.seek(seconds),
    close,
    audioElement: (
      // eslint-disable-next-line jsx-a11y/media-has-caption -- a DJ mix is music with no captions to give; its title is shown as text.
      <audio
        ref={attach}
        preload="none"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onTimeUpdate={(e) => {
          setPosition(e.currentTarget.currentTime);
          source.progress(e.currentTarget.currentTime);
        }}
        onLoadedMetadata={(e) => setDuration(Number.isFinite(e.currentTarget.duration) ? e.currentTarget.duration : 0)}
        onEnded={() => {
          setPlaying(false);
          notify('Track Ended');
        }}
        onError={() => source.error()}
      />
    ),
  };
}
