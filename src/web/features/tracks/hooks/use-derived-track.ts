import { useEffect, useMemo, useState } from 'react';
import { deriveTrackInfo, type DerivedTrackInfo } from '../../../../contracts/derived-track';

/** The derived-track refresh. */
export const DERIVED_TRACK_REFRESH_MS = 20_000;

/**
 * Derived track info for what is on air (null: nothing on air): worked out in the same render as a new
 * title, so the guesses never describe the previous track, and again every 20 s.
 */
export function useDerivedTrack(now: { artist: string; title: string; album: string } | null): DerivedTrackInfo | null {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), DERIVED_TRACK_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  const artist = now?.artist;
  const title = now?.title;
  const album = now?.album ?? '';
  return useMemo(
    () => (artist !== undefined && title !== undefined ? deriveTrackInfo({ artist, title, album }) : null),
    // `tick` re-derives on the refresh even when the words did not change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [artist, title, album, tick],
  );
}
