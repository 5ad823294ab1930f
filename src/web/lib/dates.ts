/**
 * The one date helper: times are stored in UTC and shown in
 * Europe/Dublin with the en-IE locale. Every function accepts a Date, an ISO string or epoch ms
 * and returns '' for a missing or unreadable value, so a bad row never breaks a page.
 */
export const TIME_ZONE = 'Europe/Dublin';
export const LOCALE = 'en-IE';

export type DateInput = Date | string | number | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

const formatters = {
  date: new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, day: 'numeric', month: 'short', year: 'numeric' }),
  longDate: new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, day: 'numeric', month: 'long', year: 'numeric' }),
  time: new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
  dateTime: new Intl.DateTimeFormat(LOCALE, {
    timeZone: TIME_ZONE,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }),
  isoDay: new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }),
};

/** '21 Nov 2026' */
export function formatDate(value: DateInput): string {
  const d = toDate(value);
  return d ? formatters.date.format(d) : '';
}

/** '21 November 2026' (expiry dates, joined dates). */
export function formatLongDate(value: DateInput): string {
  const d = toDate(value);
  return d ? formatters.longDate.format(d) : '';
}

/** '21:05' (24-hour, Dublin time). */
export function formatTime(value: DateInput): string {
  const d = toDate(value);
  return d ? formatters.time.format(d) : '';
}

/** '21 Nov 2026, 21:05' */
export function formatDateTime(value: DateInput): string {
  const d = toDate(value);
  return d ? formatters.dateTime.format(d) : '';
}

/** The Dublin calendar day as YYYY-MM-DD (file names such as CSV exports, "today" checks). */
export function dublinDay(value: DateInput): string {
  const d = toDate(value);
  return d ? formatters.isoDay.format(d) : '';
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** 'Just now', 'Nm ago', 'Nh ago', 'Nd ago'; times in the future read 'Just now'. */
export function relativeTime(value: DateInput, now: DateInput = Date.now()): string {
  const d = toDate(value);
  const n = toDate(now);
  if (!d || !n) return '';
  const diff = n.getTime() - d.getTime();
  if (diff < MINUTE) return 'Just now';
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)}m ago`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)}h ago`;
  return `${Math.floor(diff / DAY)}d ago`;
}

/** Seconds as 'm:ss' (track durations); '' for negative or missing values. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '';
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
