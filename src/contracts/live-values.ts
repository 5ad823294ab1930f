import { MINUTE_MS, SECOND_MS } from './time';

/**
 * The live monitor's timing and limits, free of zod so the heartbeat every page sends
 * costs the first load nothing but these numbers.
 */
export const HEARTBEAT_PATH = '/api/admin/heartbeat';
/** A page sends a heartbeat this often... */
export const HEARTBEAT_INTERVAL_MS = 90 * SECOND_MS;
/** ...and after user activity, at most once per this interval. */
export const HEARTBEAT_ACTIVITY_MIN_MS = 30 * SECOND_MS;
/** Online means a heartbeat within this window. */
export const ONLINE_WINDOW_MS = 3 * MINUTE_MS;
/** The monitor page refreshes this often. */
export const LIVE_MONITOR_REFRESH_MS = 10 * SECOND_MS;
/** Where the browser keeps the anonymous visitor's random id: per tab, gone when the tab closes. */
export const ANONYMOUS_ID_KEY = 'dhr-visitor-id';
/** The page path a heartbeat may report: at most this long. */
export const PAGE_MAX = 200;
/** The anonymous id: 16 to 64 URL-safe characters (the web sends a random UUID). */
export const ANONYMOUS_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
