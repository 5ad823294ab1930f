import { DAY_MS, HOUR_MS, MINUTE_MS, RADIO_LOCALE, RADIO_TIME_ZONE } from '../../contracts/time';

/**
 * The one date helper: times are stored in UTC and shown in the radio's time zone and locale
 * (src/contracts/time.ts). Every function accepts a Date, an ISO string or epoch ms
 * and returns '' for a missing or unreadable value, so a bad row never breaks a page.
 */

export type DateInput = Date | string | number | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

const FORMATS = {
  date: [RADIO_LOCALE, { timeZone: RADIO_TIME_ZONE, day: 'numeric', month: 'short', year: 'numeric' }],
  longDate: [RADIO_LOCALE, { timeZone: RADIO_TIME_ZONE, day: 'numeric', month: 'long', year: 'numeric' }],
  time: [RADIO_LOCALE, { timeZone: RADIO_TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }],
  dateTime: [
    RADIO_LOCALE,
    { timeZone: RADIO_TIME_ZONE, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  ],
  isoDay: ['en-CA', { timeZone: RADIO_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }],
} satisfies Record<string, readonly [string, Intl.DateTimeFormatOptions]>;

const made: Partial<Record<keyof typeof FORMATS, Intl.DateTimeFormat>> = {};

/**
 * Each formatter is made on its first use: building one with a time zone loads the zone's data, about
 * 15 ms of a phone's main thread per page that imports this module, most of which format no date at all.
 */
function formatter(name: keyof typeof FORMATS): Intl.DateTimeFormat {
  const [locale, options] = FORMATS[name];
  return (made[name] ??= new Intl.DateTimeFormat(locale, options));
}

/** '21 Nov 2026' */
export function formatDate(value: DateInput): string {
  const d = toDate(value);
  return d ? formatter('date').format(d) : '';
}

/** '21 November 2026' (expiry dates, joined dates). */
export function formatLongDate(value: DateInput): string {
  const d = toDate(value);
  return d ? formatter('longDate').format(d) : '';
}

/** '21:05' (24-hour, Dublin time). */
export function formatTime(value: DateInput): string {
  const d = toDate(value);
  return d ? formatter('time').format(d) : '';
}

/** '21 Nov 2026, 21:05' */
export function formatDateTime(value: DateInput): string {
  const d = toDate(value);
  return d ? formatter('dateTime').format(d) : '';
}

/** The Dublin calendar day as YYYY-MM-DD (file names such as CSV exports, "today" checks). */
export function dublinDay(value: DateInput): string {
  const d = toDate(value);
  return d ? formatter('isoDay').format(d) : '';
}

/** 'Just now', 'Nm ago', 'Nh ago', 'Nd ago'; times in the future read 'Just now'. */
export function relativeTime(value: DateInput, now: DateInput = Date.now()): string {
  const d = toDate(value);
  const n = toDate(now);
  if (!d || !n) return '';
  const diff = n.getTime() - d.getTime();
  if (diff < MINUTE_MS) return 'Just now';
  if (diff < HOUR_MS) return `${Math.floor(diff / MINUTE_MS)}m ago`;
  if (diff < DAY_MS) return `${Math.floor(diff / HOUR_MS)}h ago`;
  return `${Math.floor(diff / DAY_MS)}d ago`;
}

/** Seconds as 'm:ss' (track durations); '' for negative or missing values. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '';
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
