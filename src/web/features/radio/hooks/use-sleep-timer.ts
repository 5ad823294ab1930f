import { useCallback, useEffect, useRef, useState } from 'react';
import { useLatest } from '../../../lib/use-latest';
import { MINUTE_MS } from '../../../../contracts/time';

/** The sleep options in minutes. */
export const SLEEP_OPTIONS = [15, 30, 60, 90] as const;

/**
 * A single sleep timer: setting a new one replaces the old, `clear` cancels it, and when
 * it fires `onFire` runs once. `remainingMs` ticks every second while a timer is set.
 */
export function useSleepTimer(onFire: (minutes: number) => void) {
  const [endsAt, setEndsAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const fire = useLatest(onFire);

  const clear = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    setEndsAt(null);
  }, []);

  const set = useCallback(
    (minutes: number) => {
      clearTimeout(timer.current);
      const ms = minutes * MINUTE_MS;
      const start = Date.now();
      setNow(start);
      setEndsAt(start + ms);
      timer.current = setTimeout(() => {
        timer.current = undefined;
        setEndsAt(null);
        fire.current(minutes);
      }, ms);
    },
    [fire],
  );

  useEffect(() => {
    if (endsAt === null) return;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, [endsAt]);

  useEffect(() => () => clearTimeout(timer.current), []);

  return { set, clear, active: endsAt !== null, remainingMs: endsAt === null ? 0 : Math.max(0, endsAt - now) };
}

/** m:ss, or h:mm:ss past an hour. */
export function formatCountdown(ms: number): string {
  const total = Math.ceil(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
