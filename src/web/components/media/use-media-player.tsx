import { useEffect, useRef, useState, type ReactNode } from 'react';

/** What the player needs of anything it plays (a VIP mix, or any other recording). */
export interface PlayableMedia {
  id: string;
  title: string;
  artist: string;
  /** Seconds, as the library knows it; the file's own length replaces it once loaded. */
  duration: number;
}

export interface MediaPlayerOptions<M extends PlayableMedia> {
  /** A fresh stream link for `media`. Links live minutes: after an error mid-play it is asked once more and playback resumes. */
  streamUrl: (media: M) => Promise<string>;
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
  /** Plays `media` from the start (or toggles play/pause when it is the current one). */
  play: (media: M) => void;
  /** Play/pause of the current media. */
  toggle: () => void;
  seek: (seconds: number) => void;
  close: () => void;
  /** The one <audio> element, to render once on the page (MediaPlayerView does). */
  audioElement: ReactNode;
}

/**
 * One audio element for a page of recordings: asks for a stream link when a recording starts, keeps
 * position and length for the bar, resumes once with a new link after a mid-play error, and stops
 * when the page goes away. Access rules stay with the caller: it calls `play` only for what the
 * listener may hear.
 */
export function useMediaPlayer<M extends PlayableMedia>({ streamUrl, notify, loadError }: MediaPlayerOptions<M>): MediaPlayer<M> {
  const [current, setCurrent] = useState<M | null>(null);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const [duration, setDuration] = useState(0);
  const audio = useRef<HTMLAudioElement | null>(null);
  const resumeTried = useRef(false);

  useEffect(() => () => audio.current?.pause(), []);

  async function start(media: M, at = 0) {
    const el = audio.current;
    if (!el) return;
    let url: string;
    try {
      url = await streamUrl(media);
    } catch (err) {
      notify(loadError(media, err), 'error');
      setCurrent(null);
      return;
    }
    el.src = url;
    el.currentTime = at;
    try {
      await el.play();
      if (at === 0) notify(`Now Playing: ${media.title}`);
    } catch (err) {
      if (err instanceof DOMException && err.name === 'NotAllowedError') notify('Click to enable audio playback');
    }
  }

  function toggle() {
    const el = audio.current;
    if (!el || !current) return;
    if (playing) {
      el.pause();
      notify(`Paused: ${current.title}`);
    } else void el.play().catch(() => notify('Click to enable audio playback'));
  }

  function play(media: M) {
    const el = audio.current;
    if (!el) return;
    if (current?.id === media.id) return toggle();
    el.pause();
    setCurrent(media);
    setPosition(0);
    setDuration(0);
    resumeTried.current = false;
    void start(media);
  }

  function onError() {
    const el = audio.current;
    if (!current || !el) return;
    if (!resumeTried.current && el.currentTime > 0) {
      resumeTried.current = true;
      void start(current, el.currentTime);
      return;
    }
    notify('Audio Error - File Not Available', 'error');
    setPlaying(false);
  }

  function close() {
    audio.current?.pause();
    audio.current?.removeAttribute('src');
    setCurrent(null);
    setPlaying(false);
  }

  function seek(seconds: number) {
    if (audio.current) audio.current.currentTime = seconds;
  }

  return {
    current,
    playing,
    position,
    duration,
    play,
    toggle,
    seek,
    close,
    audioElement: (
      <audio
        ref={audio}
        preload="none"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onTimeUpdate={(e) => setPosition(e.currentTarget.currentTime)}
        onLoadedMetadata={(e) => setDuration(Number.isFinite(e.currentTarget.duration) ? e.currentTarget.duration : 0)}
        onEnded={() => {
          setPlaying(false);
          notify('Track Ended');
        }}
        onError={onError}
      />
    ),
  };
}
