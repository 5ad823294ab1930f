import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Tier } from '../../../contracts/tiers';
import { users } from './members';

/**
 * Messages of the channel chats ('free' or a channel id), kept CHAT_RETENTION_DAYS days.
 * @owner src/server/modules/chat/chat-repository.ts
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel').notNull(),
    /** Null once the author deleted their account. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Name, tier and badge when posting (from the session, never the body). */
    authorName: text('author_name').notNull(),
    authorTier: text('author_tier').$type<Tier>().notNull(),
    supporter: boolean('supporter').notNull().default(false),
    authorIsAdmin: boolean('author_is_admin').notNull().default(false),
    text: text('text').notNull(),
    /** 'held' waits for a moderator (link hold); only its author and moderators see it. */
    status: text('status').$type<'shown' | 'held'>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('chat_messages_channel_idx').on(t.channel, t.createdAt.desc()), index('chat_messages_created_idx').on(t.createdAt)],
);

/**
 * Per member chat state: the end of a mute and the last post (slow mode is one atomic update of it).
 * @owner src/server/modules/chat/chat-repository.ts
 */
export const chatMembers = pgTable('chat_members', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  lastPostAt: timestamp('last_post_at', { withTimezone: true }),
  mutedUntil: timestamp('muted_until', { withTimezone: true }),
  mutedBy: uuid('muted_by').references(() => users.id, { onDelete: 'set null' }),
});
