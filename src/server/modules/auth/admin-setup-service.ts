import { AUTH_MESSAGES } from '../../../contracts/auth';
import type { Db } from '../../db/client';
import { xactLock } from '../../db/advisory-locks';
import type { UserRow } from '../../db/schema';
import { conflict } from '../../lib/errors';
import { adminExists, findMemberByEmail, insertMember } from '../members/members-repository';

/**
 * The first admin, created from the setup page: refused once any admin exists, on every instance at
 * once (an advisory lock serialises the check and the insert). An address that already has a member
 * account is refused too: taking it over here would skip the proof of its email, and the admin
 * command can promote it instead.
 */
export async function createFirstAdmin(db: Db, values: { email: string; username: string; passwordHash: string }): Promise<UserRow> {
  return db.transaction(async (tx) => {
    await tx.execute(xactLock('firstAdminSetup'));
    if (await adminExists(tx)) throw conflict(AUTH_MESSAGES.setupNotNeeded, 'setup_done');
    if (await findMemberByEmail(tx, values.email)) {
      throw conflict('A member account already uses this email. Use another email, or promote it with `npm run admin`.', 'email_taken');
    }
    return insertMember(tx, { ...values, isAdmin: true, subscriptionStatus: 'active' });
  });
}
