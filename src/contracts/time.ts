/**
 * The radio's clock and calendar, shared by server and web: the station is in Dublin, so a "day"
 * (download limits, "today's downloads", date-only expiries) starts at midnight Europe/Dublin, and
 * numbers and dates read the Irish English way. Durations are written with these constants, never
 * with bare millisecond arithmetic.
 */
export const RADIO_TIME_ZONE = 'Europe/Dublin';
export const RADIO_LOCALE = 'en-IE';

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
