import { asc } from 'drizzle-orm';
import type { Channel } from '../../../contracts/channels';
import type { Db } from '../../db/client';
import { channels } from '../../db/schema';

export type ChannelRow = typeof channels.$inferSelect;

export async function listChannels(db: Db): Promise<ChannelRow[]> {
  return db.select().from(channels).orderBy(asc(channels.sortOrder), asc(channels.id));
}

export function toPublicChannel(row: ChannelRow): Channel {
  return {
    id: row.id,
    name: row.name,
    colour: row.colour,
    streamUrl: row.streamUrl,
    bitrateLabel: row.bitrateLabel,
    requiredTier: row.requiredTier as Channel['requiredTier'],
  };
}
