import { ANONYMOUS_PERMISSIONS, permissionsFor, type Permissions } from '../../../contracts/tier-policy';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { startOfDayDublin } from '../../lib/dates';
import { countDownloadsSince } from '../mixes/mixes-repository';

/** The permission flags (tier-policy's permissionsFor) of the request's member (anonymous: all false). */
export async function memberPermissions(db: Db, user: UserRow | null, now: Date = new Date()): Promise<Permissions> {
  if (!user) return ANONYMOUS_PERMISSIONS;
  const base = permissionsFor(user, 0, now);
  if (!base.canDownload) return base;
  // Only members who may download pay for the count of today's downloads (reset at midnight Dublin).
  return permissionsFor(user, await countDownloadsSince(db, startOfDayDublin(now), user.id), now);
}
