import type { Db } from '../../db/client';
import { accountDeletions, type AccountDeletionCause } from '../../db/schema';

/** The one owner of `account_deletions` (docs/conventions.md). */

export async function recordAccountDeletion(db: Db, memberIdHash: string, cause: AccountDeletionCause, at: Date = new Date()): Promise<void> {
  await db.insert(accountDeletions).values({ memberIdHash, cause, deletedAt: at });
}
