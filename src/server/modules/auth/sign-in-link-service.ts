import { AUTH_MESSAGES, LINK_INVALID_MESSAGE, LINK_PAGES } from '../../../contracts/auth';
import { hasActiveSubscription } from '../../../contracts/tier-policy';
import type { UserRow } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import type { MailMessage } from '../../lib/mail';
import { credentialsChanged } from '../../lib/sessions';
import { usernameFromEmail } from '../members/member-views';
import { EmailTakenError, findMemberByEmail, findMemberById, insertMember, updateMember } from '../members/members-repository';
import { tokenLink, type AccountContext } from './account-links';
import { checkCode, consumeLinkToken, issueCode, issueLinkToken } from './auth-tokens';
import { adminUsesPasswordMail, signInLinkMail } from './mails';

/**
 * The mail an email-only sign-in asks for, built after the reply so that the answer does not tell
 * whether the email is known. Null when the email is neither a member nor a paying platform subscriber.
 */
export async function signInLinkMailFor(ctx: AccountContext, email: string): Promise<MailMessage | null> {
  const { db, publicUrl } = ctx;
  const user = await findMemberByEmail(db, email);
  // Admins sign in with their password (docs/decisions/0007-accounts-sign-in-and-rate-limits.md); the mail says so instead of carrying a link.
  if (user?.isAdmin) return adminUsesPasswordMail(email, `${publicUrl}/auth`, `${publicUrl}/forgot-password`);
  if (!user && !(await isPayingSubscriber(ctx, email))) return null;
  const token = await issueLinkToken(db, 'login_link', email, user?.id ?? null);
  // The same mail carries a code for signing in on another device than the one that reads mail.
  const code = await issueCode(db, email, user?.id ?? null, 'login_code');
  return signInLinkMail(email, tokenLink(publicUrl, LINK_PAGES.signIn, token), code);
}

async function isPayingSubscriber(ctx: AccountContext, email: string): Promise<boolean> {
  const sub = await ctx.platformSubscribers.find(email);
  return sub !== null && hasActiveSubscription({ isAdmin: false, subscriptionTier: sub.tier, subscriptionStatus: sub.status, subscriptionExpiry: sub.expiry });
}

/** Uses up a sign-in link and answers the member it signs in; a link that is spent, unknown or names an admin is refused. */
export async function memberForSignInLink(ctx: AccountContext, token: string): Promise<UserRow> {
  const row = await consumeLinkToken(ctx.db, 'login_link', token);
  const user = row ? await userForLink(ctx, row.userId, row.email) : null;
  // A member made admin after the link was sent still needs the password; a link mailed to an address
  // the account no longer has opens nothing.
  if (!user || user.isAdmin || user.email !== row?.email) throw badRequest(LINK_INVALID_MESSAGE, 'link_invalid');
  return user.emailVerifiedAt ? user : verifyByLink(ctx, user);
}

/**
 * Uses up a sign-in code and answers the member it signs in, on the same terms as a link. A wrong code
 * uses up one of its tries (auth-tokens.ts checkCode, atomic under parallel guesses).
 */
export async function memberForSignInCode(ctx: AccountContext, email: string, code: string): Promise<UserRow> {
  const result = await checkCode(ctx.db, email, code, true, 'login_code');
  if (!result.ok) {
    throw result.reason === 'invalid' ? badRequest(AUTH_MESSAGES.codeInvalid, 'code_invalid') : badRequest(AUTH_MESSAGES.codeExpired, 'code_expired');
  }
  const { row } = result;
  const user = await userForLink(ctx, row.userId, row.email);
  if (!user || user.isAdmin || user.email !== row.email) throw badRequest(AUTH_MESSAGES.codeExpired, 'code_expired');
  return user.emailVerifiedAt ? user : verifyByLink(ctx, user);
}

/** The link's member; a platform subscriber without an account gets one now (docs/decisions/0006-platform-subscriptions-and-members-admin.md). */
async function userForLink(ctx: AccountContext, userId: string | null, email: string): Promise<UserRow | null> {
  const { db } = ctx;
  if (userId) return findMemberById(db, userId);
  const existing = await findMemberByEmail(db, email);
  if (existing) return existing;
  const sub = await ctx.platformSubscribers.find(email);
  if (!sub) return null;
  try {
    return await insertMember(db, {
      email,
      username: sub.username?.trim().slice(0, 50) || usernameFromEmail(email),
      firstName: sub.firstName ?? null,
      lastName: sub.lastName ?? null,
      subscriptionTier: sub.tier,
      subscriptionStatus: sub.status,
      subscriptionExpiry: sub.expiry,
      subscriptionSource: sub.source,
      pledgeAmountCents: sub.pledgeAmountCents,
    });
  } catch (err) {
    if (err instanceof EmailTakenError) return findMemberByEmail(db, email);
    throw err;
  }
}

/**
 * The first link sign-in into an unverified account proves the email. Whoever registered it may not
 * be its owner: their password goes and their sessions end before the owner is let in and the
 * platforms' records for the email apply.
 */
async function verifyByLink(ctx: AccountContext, user: UserRow): Promise<UserRow> {
  const { db } = ctx;
  await db.transaction(async (tx) => {
    await updateMember(tx, user.id, { passwordHash: null, emailVerifiedAt: new Date() });
    await credentialsChanged(tx, user.id, 'email_proven_by_link');
    await ctx.platformSubscribers.applyTo(tx, user.email);
  });
  return (await findMemberByEmail(db, user.email)) ?? user;
}
