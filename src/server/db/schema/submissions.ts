import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { SubmissionStatus } from '../../../contracts/submissions';
import { users } from './members';

/**
 * DJ mix submissions from the upload form, reviewed by admins: new, listening, accepted, declined.
 * @owner src/server/modules/submissions/submissions-repository.ts
 */
export const djSubmissions = pgTable(
  'dj_submissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    artistName: text('artist_name').notNull(),
    /** Lower-cased. */
    email: text('email').notNull(),
    mixTitle: text('mix_title').notNull(),
    genre: text('genre').notNull(),
    duration: text('duration'),
    description: text('description').notNull(),
    wetransferLink: text('wetransfer_link').notNull(),
    socialMedia: text('social_media'),
    previousReleases: text('previous_releases'),
    status: text('status').$type<SubmissionStatus>().notNull().default('new'),
    /** The reviewer's note (the DJ reads it in the accepted/declined mail). */
    note: text('note'),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('dj_submissions_created_idx').on(t.createdAt)],
);

export type DjSubmissionRow = typeof djSubmissions.$inferSelect;
