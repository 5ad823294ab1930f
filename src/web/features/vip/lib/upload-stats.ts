import { formatBytes } from './mix-access';

/** What the upload bar says: bytes, percent, speed and time left, from bytes sent so far and when it started. */
export interface UploadStats {
  /** 0..1, or null while the total is unknown. */
  fraction: number | null;
  text: string;
}

/** "12.0 MB of 61.0 MB · 20% · 4.0 MB/s · 13 s left"; speed and time left once a second has passed. */
export function uploadStats(loaded: number, total: number, elapsedMs: number): UploadStats {
  if (total <= 0) return { fraction: null, text: `${formatBytes(loaded)} sent` };
  const fraction = Math.min(1, loaded / total);
  const parts = [`${formatBytes(loaded)} of ${formatBytes(total)}`, `${Math.floor(fraction * 100)}%`];
  if (elapsedMs >= 1000 && loaded > 0) {
    const perSecond = loaded / (elapsedMs / 1000);
    parts.push(`${formatBytes(perSecond)}/s`);
    parts.push(loaded >= total ? 'finishing…' : `${timeLeft((total - loaded) / perSecond)} left`);
  }
  return { fraction, text: parts.join(' · ') };
}

function timeLeft(seconds: number): string {
  const s = Math.ceil(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
