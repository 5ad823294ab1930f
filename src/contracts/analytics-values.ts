/** Analytics' values the server and the web share (zod-free: docs/conventions.md, "Adding a page"). */

/** The families a listener's player is sorted into, read from its User-Agent. */
export const PLAYER_FAMILIES = ['browser', 'mobile_app', 'smart_speaker', 'media_player', 'other'] as const;
export type PlayerFamily = (typeof PLAYER_FAMILIES)[number];

/** How each family is named on the analytics page and in its CSVs. */
export const PLAYER_FAMILY_LABELS: Readonly<Record<PlayerFamily, string>> = {
  browser: 'Browser',
  mobile_app: 'Mobile app',
  smart_speaker: 'Smart speaker',
  media_player: 'Media player',
  other: 'Other',
};

/** A session that ended sooner than this was a reconnect, not a listen: it is dropped. */
export const MIN_SESSION_S = 5;

/** The analytics routes' refusals, in the words the page shows. */
export const ANALYTICS_MESSAGES = {
  dayInFuture: 'That day has not begun yet',
  dayTooOld: 'Listening sessions are kept 30 days: that day can no longer be rebuilt',
  badMonth: 'Give the month as YYYY-MM',
  badRange: 'Give the range as two dates, YYYY-MM-DD, the first not after the second, at most 400 days apart',
  badReportRange: 'Give the report range as two dates, YYYY-MM-DD, the first not after the second, at most 31 days apart',
} as const;
