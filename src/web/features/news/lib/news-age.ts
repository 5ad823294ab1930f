import { DAY_MS, HOUR_MS } from '../../../../contracts/time';

/** News ages read in hours or days: 'Just now' under an hour, 'Nh ago', 'Nd ago'. */
export function newsAge(iso: string, now: number = Date.now()): string {
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return '';
  const diff = now - t;
  if (diff < HOUR_MS) return 'Just now';
  if (diff < DAY_MS) return `${Math.floor(diff / HOUR_MS)}h ago`;
  return `${Math.floor(diff / DAY_MS)}d ago`;
}

/** Links from feeds are absolute http(s); the seeded station news links to app pages. */
export function isExternalLink(link: string): boolean {
  return /^https?:\/\//i.test(link);
}
