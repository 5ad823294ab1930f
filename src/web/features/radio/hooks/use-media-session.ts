import { useEffect } from 'react';

/** Lock-screen and headset controls: metadata plus play, pause and stop. */
export function useMediaSession(
  enabled: boolean,
  meta: { title: string; artist: string },
  actions: { play: () => void; pause: () => void; stop: () => void },
): void {
  const { title, artist } = meta;
  const { play, pause, stop } = actions;

  useEffect(() => {
    if (!enabled || !('mediaSession' in navigator) || typeof MediaMetadata === 'undefined') return;
    navigator.mediaSession.metadata = new MediaMetadata({
      title,
      artist,
      album: 'Deep House Radio',
      artwork: [{ src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' }],
    });
  }, [enabled, title, artist]);

  useEffect(() => {
    if (!enabled || !('mediaSession' in navigator)) return;
    const session = navigator.mediaSession;
    const set = (action: MediaSessionAction, handler: (() => void) | null) => {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // an action this browser does not support
      }
    };
    set('play', play);
    set('pause', pause);
    set('stop', stop);
    return () => {
      set('play', null);
      set('pause', null);
      set('stop', null);
    };
  }, [enabled, play, pause, stop]);
}
