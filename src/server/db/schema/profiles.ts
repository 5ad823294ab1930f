import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ProfileVisibility } from '../../../contracts/community';
import { users } from './members';

/**
 * A member's public profile beyond the users row.
 * @owner src/server/modules/profiles/profiles-repository.ts
 */
export const memberProfiles = pgTable('member_profiles', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  bio: text('bio'),
  location: text('location'),
  website: text('website'),
  favoriteGenres: jsonb('favorite_genres').$type<string[]>().notNull().default([]),
  profileImageUrl: text('profile_image_url'),
  profileBannerUrl: text('profile_banner_url'),
  emailNotifications: boolean('email_notifications').notNull().default(true),
  chatNotifications: boolean('chat_notifications').notNull().default(true),
  profileVisibility: text('profile_visibility').$type<ProfileVisibility>().notNull().default('public'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * @owner src/server/modules/profiles/profiles-repository.ts
 */
export const follows = pgTable(
  'follows',
  {
    followerId: uuid('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    followeeId: uuid('followee_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.followeeId] }),
    index('follows_followee_idx').on(t.followeeId),
    check('follows_not_self', sql`${t.followerId} <> ${t.followeeId}`),
  ],
);

export type MemberProfileRow = typeof memberProfiles.$inferSelect;
