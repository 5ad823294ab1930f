import { DAY_MS, HOUR_MS } from '../../../contracts/time';
import type { Db } from '../../db/client';
import { truncateSessionAddresses } from '../../lib/sessions';
import { LIVE_RETENTION_MS, pruneLive } from '../visitors/visitors-repository';
import { pruneStreamVolume } from '../mixes/mixes-repository';
import { pruneEndedConnections } from '../radio/stream-connections-repository';
import { pruneEndedSessions } from '../analytics/listening-sessions-repository';
import { pruneListenerCounts } from '../analytics/rollups-repository';
import { MINUTE_COUNTS_MAX_AGE_MS, QUARTER_COUNTS_MAX_AGE_MS } from '../analytics/rollups-service';

/** The longest the live monitor's visitor and page-view rows are kept (the live module prunes sooner). */
export const LIVE_ROWS_MAX_AGE_MS = 30 * DAY_MS;
/** How long an ended premium-stream connection stays in the admin's view (and the member's export). */
export const STREAM_CONNECTIONS_MAX_AGE_MS = 30 * DAY_MS;
/** How long a raw listening session is kept; the daily rollups keep no personal data and stay. */
export const LISTENING_SESSIONS_MAX_AGE_MS = 30 * DAY_MS;
/** How long a member's daily mix-streaming volume is kept (the limit reads only today's). */
export const STREAM_VOLUME_MAX_AGE_MS = 2 * DAY_MS;
/** The longest a full IP address is kept; sessions then keep only its network. */
export const FULL_ADDRESS_MAX_AGE_MS = 24 * HOUR_MS;

/**
 * The daily retention pass. Sessions are the one table that stores a full IP address (rate-limit
 * counters hold a network bucket and leave within the hour; the live monitor keeps only a city).
 */
export async function runPrivacyRetention(db: Db, now: Date = new Date()): Promise<void> {
  await pruneLive(db, new Date(now.getTime() - Math.min(LIVE_RETENTION_MS, LIVE_ROWS_MAX_AGE_MS)));
  await truncateSessionAddresses(db, new Date(now.getTime() - FULL_ADDRESS_MAX_AGE_MS));
  await pruneEndedConnections(db, new Date(now.getTime() - STREAM_CONNECTIONS_MAX_AGE_MS));
  await pruneEndedSessions(db, new Date(now.getTime() - LISTENING_SESSIONS_MAX_AGE_MS));
  await pruneListenerCounts(db, new Date(now.getTime() - MINUTE_COUNTS_MAX_AGE_MS), new Date(now.getTime() - QUARTER_COUNTS_MAX_AGE_MS));
  await pruneStreamVolume(db, new Date(now.getTime() - STREAM_VOLUME_MAX_AGE_MS));
}
