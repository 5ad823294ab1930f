import { asc } from 'drizzle-orm';
import type { Channel } from '../../../contracts/channels';
import { parseTier } from '../../../contracts/tiers';
import type { Db } from '../../db/client';
import { channels } from '../../db/schema';

export type ChannelRow = typeof channels.$inferSelect;

export async function listChannels(db: Db): Promise<ChannelRow[]> {
  return db.select().from(channels).orderBy(asc(channels.sortOrder), asc(channels.id));
}

/** What anyone may see: never the premium mount's URL (members get it with a token from /stream). */
export function toPublicChannel(row: ChannelRow): Channel {
  return {
    id: row.id,
    name: row.name,
    colour: row.colour,
    bitrateLabel: row.bitrateLabel,
    requiredTier: parseTier(row.requiredTier) ?? 'vip',
    freeStreamUrl: row.freeStreamUrl,
    freeBitrateLabel: row.freeStreamUrl ? row.freeBitrateLabel : null,
  };
}
