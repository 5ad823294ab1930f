import { bigint, boolean, integer, jsonb, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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

/**
 * @owner src/server/modules/shop/shop-repository.ts
 * @writes src/server/db/seed/seed.ts (the demo catalogue)
 */
export const shopProducts = pgTable('shop_products', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  price: numeric('price', { precision: 10, scale: 2, mode: 'number' }).notNull(),
  originalPrice: numeric('original_price', { precision: 10, scale: 2, mode: 'number' }),
  category: text('category').notNull(),
  images: jsonb('images').$type<string[]>().notNull().default([]),
  description: text('description').notNull().default(''),
  sizes: jsonb('sizes').$type<string[]>(),
  colors: jsonb('colors').$type<string[]>(),
  rating: numeric('rating', { precision: 2, scale: 1, mode: 'number' }).notNull().default(5),
  reviews: integer('reviews').notNull().default(0),
  inStock: boolean('in_stock').notNull().default(true),
  featured: boolean('featured').notNull().default(false),
  tags: jsonb('tags').$type<string[]>().notNull().default([]),
  isActive: boolean('is_active').notNull().default(true),
  redbubbleUrl: text('redbubble_url'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * @owner src/server/modules/mixes/mixes-repository.ts
 * @writes src/server/db/seed/seed.ts (the demo catalogue)
 * @writes bench/mix-range.ts (points a demo mix at a 100 MB file)
 */
export const vipMixes = pgTable('vip_mixes', {
  id: text('id').primaryKey(),
  title: text('title').notNull(),
  artist: text('artist').notNull(),
  genre: text('genre').notNull(),
  /** Seconds. */
  duration: integer('duration').notNull(),
  /** Bytes (a long mix in WAV passes 2 GB). */
  fileSize: bigint('file_size', { mode: 'number' }).notNull(),
  /** kbit/s, read from the uploaded file; null when unknown. */
  bitrateKbps: integer('bitrate_kbps'),
  artworkUrl: text('artwork_url'),
  isExclusive: boolean('is_exclusive').notNull().default(true),
  rating: numeric('rating', { precision: 2, scale: 1, mode: 'number' }).notNull().default(5),
  totalDownloads: integer('total_downloads').notNull().default(0),
  description: text('description').notNull().default(''),
  /** Where the audio is: a media storage key ('mixes/<id>.mp3') or an http(s) URL of an outside host. */
  s3Url: text('s3_url'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
