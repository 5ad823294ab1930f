import { useCallback, useEffect, useRef } from 'react';
import { useLatest } from '../../../lib/use-latest';
import type * as IcyModuleNs from '../lib/icy-playback';
import type { IcyPlayback } from '../lib/icy-playback';

type IcyModule = typeof IcyModuleNs;

/** Stream origins that refused the in-band title request in this tab (no CORS preflight): played directly. */
const ICY_REFUSED_KEY = 'dhr.icy-refused';

function icyRefused(url: string): boolean {
  try {
    return (sessionStorage.getItem(ICY_REFUSED_KEY) ?? '').split(' ').includes(new URL(url, location.href).origin);
  } catch {
    return false;
  }
}

function rememberIcyRefused(url: string): void {
  try {
    const origin = new URL(url, location.href).origin;
    sessionStorage.setItem(ICY_REFUSED_KEY, `${sessionStorage.getItem(ICY_REFUSED_KEY) ?? ''} ${origin}`.trim());
  } catch {
    // storage off: try again next time
  }
}

/** In-band titles need Media Source Extensions that take MP3 (not Safari on iPhone): elsewhere SSE and polling carry the titles. */
function canReadIcy(url: string): boolean {
  return typeof MediaSource !== 'undefined' && MediaSource.isTypeSupported('audio/mpeg') && !icyRefused(url);
}

function loadDirectly(audio: HTMLAudioElement, url: string): void {
  audio.src = url;
  audio.load();
}

export interface StreamTitles {
  /** Loads `url` into the element, through the in-band title reader where it can; false when `stale()` turned true meanwhile. */
  load: (audio: HTMLAudioElement, url: string, connection: { stale: () => boolean; onDrop: () => void }) => Promise<boolean>;
  /** Stops the title reader of the current connection, if any, and clears the heard title. */
  stop: () => void;
}

/** The in-band title reader (ICY metadata) of the current connection, which reports each title line as it is heard. */
export function useStreamTitles(onStreamTitle: ((line: string | null) => void) | undefined): StreamTitles {
  const icy = useRef<IcyPlayback | undefined>(undefined);
  const onTitle = useLatest(onStreamTitle);

  const stop = useCallback(() => {
    if (!icy.current) return;
    icy.current.stop();
    icy.current = undefined;
    onTitle.current?.(null);
  }, [onTitle]);

  const load = useCallback<StreamTitles['load']>(
    async (audio, url, { stale, onDrop }) => {
      if (!onTitle.current || !canReadIcy(url)) {
        loadDirectly(audio, url);
        return true;
      }
      let reader: IcyModule | undefined;
      try {
        reader = await import('../lib/icy-playback');
        const playback = await reader.startIcyPlayback(audio, url, {
          onTitle: (line) => onTitle.current?.(line),
          onDrop: () => {
            if (icy.current === playback) onDrop();
          },
        });
        if (stale()) {
          playback.stop();
          return false;
        }
        icy.current = playback;
      } catch (err) {
        if (stale()) return false;
        if (reader && err instanceof reader.IcyUnavailable && err.lasting) rememberIcyRefused(url);
        loadDirectly(audio, url);
      }
      return true;
    },
    [onTitle],
  );

  // Unmounting stops the reader's download.
  useEffect(() => () => icy.current?.stop(), []);

  return { load, stop };
}
