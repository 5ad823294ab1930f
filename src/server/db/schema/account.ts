import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Why an account was deleted: by its member (password or an emailed link). */
export type AccountDeletionCause = 'member_password' | 'member_link';

/**
 * The audit line an account deletion leaves: when and how, and a salted hash of the member id (to
 * answer "was this account deleted?" for someone who knows the id), no email, name or address.
 * @owner src/server/modules/account/account-repository.ts
 */
export const accountDeletions = pgTable('account_deletions', {
  id: uuid('id').primaryKey().defaultRandom(),
  memberIdHash: text('member_id_hash').notNull(),
  cause: text('cause').$type<AccountDeletionCause>().notNull(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
});
