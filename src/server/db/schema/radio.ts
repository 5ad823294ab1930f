import { integer, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Radio channels are data: a third channel is a row, not code (docs/decisions/0005-radio-now-playing-and-tracks.md).
 * @owner src/server/modules/radio/channels-repository.ts
 * @writes src/server/db/seed/seed.ts (the demo catalogue)
 */
export const channels = pgTable('channels', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  colour: text('colour').notNull(),
  /** The premium mount: Icecast admits a listener only with a DHR stream token (URL listener auth). */
  streamUrl: text('stream_url').notNull(),
  statusUrl: text('status_url'),
  bitrateLabel: text('bitrate_label').notNull(),
  /** Lowest tier that may open the channel's page and its premium mount. */
  requiredTier: text('required_tier').notNull(),
  /** A public mount of the same programme that anyone may play (DHR1 at 128 kbps), or null. */
  freeStreamUrl: text('free_stream_url'),
  freeBitrateLabel: text('free_bitrate_label'),
  sortOrder: integer('sort_order').notNull().default(0),
});
