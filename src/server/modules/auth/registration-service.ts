import { AUTH_MESSAGES, LINK_PAGES } from '../../../contracts/auth';
import type { UserRow } from '../../db/schema';
import { conflict } from '../../lib/errors';
import type { MailMessage } from '../../lib/mail';
import { EmailTakenError, findMemberByEmail, insertMember } from '../members/members-repository';
import { tokenLink, type AccountContext } from './account-links';
import { issueLinkToken } from './auth-tokens';
import { verifyEmailMail } from './mails';
import { hashPassword } from './passwords';

/** Sign-up with email, username and password (docs/decisions/0007-accounts-sign-in-and-rate-limits.md, 0013). */
export async function registerMember(
  ctx: AccountContext,
  input: { email: string; password: string; username: string },
): Promise<{ user: UserRow; verificationMail: () => Promise<MailMessage> }> {
  const { db } = ctx;
  const { email, password, username } = input;
  const existing = await findMemberByEmail(db, email);
  if (existing) {
    // Members added by an admin or a platform sync have no password yet: point them to Set Password.
    throw conflict(existing.passwordHash ? AUTH_MESSAGES.emailTaken : AUTH_MESSAGES.emailTakenNoPassword, 'email_taken');
  }
  const passwordHash = await hashPassword(password);
  let user: UserRow;
  try {
    // Unverified until the emailed link is followed: no platform tier follows this address before (ADR 0013).
    user = await insertMember(db, { email, username, passwordHash, emailVerifiedAt: null });
  } catch (err) {
    // A parallel registration of the same email won the race.
    if (err instanceof EmailTakenError) throw conflict(AUTH_MESSAGES.emailTaken, 'email_taken');
    throw err;
  }
  const userId = user.id;
  // Built after the reply (mailer.sendLater): the token is issued then.
  const verificationMail = async () =>
    verifyEmailMail(email, tokenLink(ctx.publicUrl, LINK_PAGES.verifyEmail, await issueLinkToken(db, 'email_verify', email, userId)));
  return { user, verificationMail };
}
