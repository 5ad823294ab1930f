import { AUTH_MESSAGES, LINK_PAGES } from '../../../contracts/auth';
import { type AppError, badRequest, conflict, notFound, unauthorized } from '../../lib/errors';
import type { MailMessage } from '../../lib/mail';
import { credentialsChanged } from '../../lib/sessions';
import { findMemberByEmail, findMemberById, updateMember } from '../members/members-repository';
import { tokenLink, type AccountContext } from './account-links';
import { checkCode, consumeLinkToken, issueCode, issueLinkToken, peekLinkToken } from './auth-tokens';
import { passwordCodeMail, resetLinkMail } from './mails';
import { hashPassword, verifyPassword } from './passwords';
import type { UserRow } from '../../db/schema';

/** Setting, resetting and proving: the password and email flows of docs/decisions/0007-accounts-sign-in-and-rate-limits.md and 0013. */

/** Set password, step 1: a code to the email of an account that has no password yet. Answers the mail to send. */
export async function requestPasswordCode(ctx: AccountContext, email: string): Promise<MailMessage> {
  const user = await findMemberByEmail(ctx.db, email);
  if (!user) throw notFound(AUTH_MESSAGES.noAccount, 'no_account');
  if (user.passwordHash) throw conflict(AUTH_MESSAGES.alreadyHasPassword, 'has_password');
  return passwordCodeMail(email, await issueCode(ctx.db, email, user.id));
}

/** Set password, step 2: the code is right (it stays usable for step 3). */
export async function checkPasswordCode(ctx: AccountContext, email: string, code: string): Promise<void> {
  const result = await checkCode(ctx.db, email, code, false);
  if (!result.ok) throw codeError(result.reason);
}

/** Set password, step 3: the code is used up and the password set; the code proved the email too. */
export async function setPasswordWithCode(ctx: AccountContext, input: { email: string; code: string; password: string }): Promise<void> {
  const { db } = ctx;
  const { email, code, password } = input;
  const user = await findMemberByEmail(db, email);
  if (!user) throw notFound(AUTH_MESSAGES.noAccount, 'no_account');
  if (user.passwordHash) throw conflict(AUTH_MESSAGES.alreadyHasPassword, 'has_password');
  const passwordHash = await hashPassword(password);
  const result = await checkCode(db, email, code, true);
  if (!result.ok) throw codeError(result.reason);
  await db.transaction(async (tx) => {
    await updateMember(tx, user.id, { passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? new Date() });
    await credentialsChanged(tx, user.id, 'password_set');
    if (!user.emailVerifiedAt) await ctx.platformSubscribers.applyTo(tx, email);
  });
}

/**
 * A signed-in member changes their password: the current one first (`limitPasswordTries` counts the
 * guesses per email before the check), then every other session and outstanding link or code ends
 * (credentialsChanged 'password_changed'); the session it was changed in stays.
 */
export async function changePassword(
  ctx: AccountContext,
  input: { member: UserRow; sessionIdHash: string | null; currentPassword: string; newPassword: string; limitPasswordTries: (email: string) => Promise<void> },
): Promise<void> {
  const { db } = ctx;
  const { member } = input;
  if (!member.passwordHash) throw badRequest(AUTH_MESSAGES.noPasswordYet, 'no_password');
  await input.limitPasswordTries(member.email);
  if (!(await verifyPassword(member.passwordHash, input.currentPassword))) throw badRequest(AUTH_MESSAGES.currentPasswordWrong, 'wrong_password');
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await updateMember(tx, member.id, { passwordHash });
    await credentialsChanged(tx, member.id, 'password_changed', { keepSession: input.sessionIdHash ?? undefined });
  });
}

/** The reset-link mail for a known email; null for an unknown one (nothing is sent). */
export async function resetLinkMailFor(ctx: AccountContext, email: string): Promise<MailMessage | null> {
  const user = await findMemberByEmail(ctx.db, email);
  if (!user) return null;
  return resetLinkMail(email, tokenLink(ctx.publicUrl, LINK_PAGES.resetPassword, await issueLinkToken(ctx.db, 'password_reset', email, user.id)));
}

/**
 * A reset link sets the password and ends every session and every other token: whoever knew the old
 * password is signed out. It works only while the account has the address the link was mailed to.
 */
export async function resetPasswordWithLink(ctx: AccountContext, token: string, password: string): Promise<void> {
  const { db } = ctx;
  const passwordHash = await hashPassword(password);
  const row = await consumeLinkToken(db, 'password_reset', token);
  const member = row?.userId ? await findMemberById(db, row.userId) : null;
  if (!row || !member || member.email !== row.email) throw badRequest(AUTH_MESSAGES.resetLinkInvalid, 'link_invalid');
  await db.transaction(async (tx) => {
    // The link proved the email: an unverified account is verified now (its platform records apply).
    await updateMember(tx, member.id, member.emailVerifiedAt ? { passwordHash } : { passwordHash, emailVerifiedAt: new Date() });
    if (!member.emailVerifiedAt) await ctx.platformSubscribers.applyTo(tx, member.email);
    await credentialsChanged(tx, member.id, 'password_reset');
  });
}

/**
 * Follows the registration's verification link. The inbox alone is not enough: whoever registered
 * confirms, by being signed in as the member or by the password (`limitPasswordTries` rate-limits
 * those guesses per email before each check).
 */
export async function confirmEmailByLink(
  ctx: AccountContext,
  input: { token: string; password?: string; signedInUserId: string | undefined; limitPasswordTries: (email: string) => Promise<void> },
): Promise<void> {
  const { db } = ctx;
  const { token, password } = input;
  const row = await peekLinkToken(db, 'email_verify', token);
  const user = row?.userId ? await findMemberById(db, row.userId) : null;
  // An email changed since the link was sent is not what the link proved.
  if (!row || !user || user.email !== row.email) throw badRequest(AUTH_MESSAGES.verifyLinkInvalid, 'link_invalid');
  if (input.signedInUserId !== user.id) {
    if (!password) throw badRequest(AUTH_MESSAGES.verifyNeedsPassword, 'password_required');
    await input.limitPasswordTries(user.email);
    if (!(await verifyPassword(user.passwordHash, password))) throw unauthorized(AUTH_MESSAGES.verifyWrongPassword, 'invalid_credentials');
  }
  if (!(await consumeLinkToken(db, 'email_verify', token))) throw badRequest(AUTH_MESSAGES.verifyLinkInvalid, 'link_invalid');
  if (!user.emailVerifiedAt) {
    await db.transaction(async (tx) => {
      await updateMember(tx, user.id, { emailVerifiedAt: new Date() });
      await ctx.platformSubscribers.applyTo(tx, user.email);
    });
  }
}

function codeError(reason: 'invalid' | 'expired'): AppError {
  return reason === 'invalid' ? badRequest(AUTH_MESSAGES.codeInvalid, 'code_invalid') : badRequest(AUTH_MESSAGES.codeExpired, 'code_expired');
}
