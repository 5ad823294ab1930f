import { useEffect, useState } from 'react';
import { deriveTrackInfo, type DerivedTrackInfo } from '../../../../contracts/derived-track';

/** The derived-track refresh. */
export const DERIVED_TRACK_REFRESH_MS = 20_000;

/**
 * Derived track info for what is on air (null: nothing on air): worked out in the same render as a new
 * title, so the guesses never describe the previous track, and again every 20 s.
 */
export function useDerivedTrack(now: { artist: string; title: string; album: string } | null): DerivedTrackInfo | null {
  // Re-renders every 20 s, so the card derives again (a cheap, pure call) as the spec's refresh asks.
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), DERIVED_TRACK_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return now ? deriveTrackInfo({ artist: now.artist, title: now.title, album: now.album }) : null;
}
