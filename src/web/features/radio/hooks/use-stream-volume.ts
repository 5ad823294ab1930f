import { useCallback, useEffect, useState, type RefObject } from 'react';

export const DEFAULT_VOLUME = 75;

/** The volume (0-100) and mute of the <audio> element. */
export function useStreamVolume(audioRef: RefObject<HTMLAudioElement | null>) {
  const [volume, setVolumeState] = useState(DEFAULT_VOLUME);
  const [muted, setMuted] = useState(false);

  const setVolume = useCallback((v: number) => {
    const clamped = Math.max(0, Math.min(100, Math.round(v)));
    setVolumeState(clamped);
    if (clamped > 0) setMuted(false);
  }, []);
  const toggleMute = useCallback(() => setMuted((m) => !m), []);

  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    audio.volume = volume / 100;
    audio.muted = muted;
  }, [audioRef, volume, muted]);

  return { volume, muted, setVolume, toggleMute };
}
