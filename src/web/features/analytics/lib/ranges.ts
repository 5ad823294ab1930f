import { DAY_MS } from '../../../../contracts/time';

/** The page's ranges: the Dublin day so far ('24 h'), the last 7, 30, 90 or 365 days, or the admin's own. */
export const RANGES = [
  { id: '1', label: '24 h', days: 1 },
  { id: '7', label: '7 days', days: 7 },
  { id: '30', label: '30 days', days: 30 },
  { id: '90', label: '90 days', days: 90 },
  { id: '365', label: '365 days', days: 365 },
] as const;

/** A YYYY-MM-DD day moved by whole days. */
export function shiftDay(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The days [from, to] of a range ending today (a Dublin YYYY-MM-DD). */
export function rangeDays(days: number, today: string): { from: string; to: string } {
  return { from: shiftDay(today, 1 - days), to: today };
}
