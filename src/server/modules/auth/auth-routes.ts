import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_MESSAGES,
  LINK_INVALID_MESSAGE,
  LINK_PAGES,
  TOKEN_FRAGMENT_KEY,
  authReplySchema,
  authUserSchema,
  emailBodySchema,
  linkPreviewReplySchema,
  loginBodySchema,
  messageSchema,
  registerBodySchema,
  resetPasswordBodySchema,
  sessionUserReplySchema,
  setPasswordBodySchema,
  tokenBodySchema,
  userExistsReplySchema,
  verifyCodeBodySchema,
  verifyEmailBodySchema,
} from '../../../contracts/auth';
import { permissionsSchema } from '../../../contracts/member-schemas';
import { hasActiveSubscription } from '../../../contracts/tier-policy';
import type { UserRow } from '../../db/schema';
import { type AppError, badRequest, conflict, notFound, unauthorized } from '../../lib/errors';
import { access } from '../../plugins/access';
import { deleteExpiredSessions, deleteUserSessions } from '../../lib/sessions';
import { checkCode, consumeLinkToken, deleteDeadTokens, issueCode, issueLinkToken, peekLinkToken } from './auth-tokens';
import { adminUsesPasswordMail, passwordCodeMail, resetLinkMail, signInLinkMail, verifyEmailMail } from './mails';
import { hashPassword, verifyPassword } from './passwords';
import { passwordSignIn } from './password-sign-in';
import { memberPermissions } from './permissions';
import { deleteExpiredRateLimits, enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { toAuthUser, usernameFromEmail } from '../members/member-views';
import { EmailTakenError, findMemberByEmail, findMemberById, insertMember, recordLogin, updateMember } from '../members/members-repository';
import { MINUTE_MS } from '../../../contracts/time';

/** Sign-up, sign-in (password, one-time link), sign-out, password setting and the member's own views (docs/decisions/0007-accounts-sign-in-and-rate-limits.md, 0013). */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  // The token rides in the fragment: browsers never send it, so no request log holds it (issue 9).
  const link = (path: string, token: string) => `${app.config.PUBLIC_URL}${path}#${TOKEN_FRAGMENT_KEY}=${encodeURIComponent(token)}`;

  // Housekeeping: spent tokens, old rate-limit windows and expired sessions leave the tables.
  if (app.config.backgroundJobs) {
    const sweep = async () => {
      try {
        await deleteDeadTokens(db);
        await deleteExpiredRateLimits(db);
        await deleteExpiredSessions(db);
      } catch (err) {
        app.log.warn({ err }, 'auth housekeeping failed; will retry');
      }
    };
    const timer = setInterval(() => void sweep(), 15 * MINUTE_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }

  app.post(
    '/api/auth/register',
    { config: { access: access.public }, schema: { body: registerBodySchema, response: { 201: authReplySchema } } },
    async (req, reply) => {
      const { email, password, username } = req.body;
      await enforceRateLimit(db, req, RATE_RULES.register, email);
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
      app.mailer.sendLater(async () => verifyEmailMail(email, link(LINK_PAGES.verifyEmail, await issueLinkToken(db, 'email_verify', email, userId))));
      // The spec's flow: register, then sign in with the new account.
      return reply.status(201).send({ message: AUTH_MESSAGES.registrationSuccess, user: toAuthUser(user) });
    },
  );

  app.post(
    '/api/auth/email-login-secure',
    { config: { access: access.public }, schema: { body: loginBodySchema, response: { 200: authReplySchema } } },
    async (req, reply) => passwordSignIn(db, req, reply, req.body),
  );

  app.post(
    '/api/auth/logout',
    { config: { access: access.public }, schema: { response: { 200: messageSchema } } },
    async (_req, reply) => {
      await reply.signOut();
      return { message: 'Signed out' };
    },
  );

  app.get(
    '/api/auth/me',
    { config: { access: access.member }, schema: { response: { 200: authUserSchema } } },
    async (req) => toAuthUser(req.user as UserRow),
  );

  app.get(
    '/api/auth/session-user',
    { config: { access: access.public }, schema: { response: { 200: sessionUserReplySchema } } },
    async (req) => ({ user: req.user ? toAuthUser(req.user) : null }),
  );

  app.get(
    '/api/user/permissions',
    { config: { access: access.public }, schema: { response: { 200: permissionsSchema } } },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return memberPermissions(db, req.user);
    },
  );

  // An account-enumeration oracle the spec's set-password page needs: kept, but limited hard.
  app.post(
    '/api/auth/check-user-exists',
    { config: { access: access.public }, schema: { body: emailBodySchema, response: { 200: userExistsReplySchema } } },
    async (req) => {
      const { email } = req.body;
      await enforceRateLimit(db, req, RATE_RULES.checkUser, email);
      const user = await findMemberByEmail(db, email);
      return { exists: user !== null, hasPassword: user?.passwordHash != null };
    },
  );

  // Set password, step 1: prove the email by a code sent to it.
  app.post(
    '/api/auth/set-password/request-code',
    { config: { access: access.public }, schema: { body: emailBodySchema, response: { 200: messageSchema } } },
    async (req) => {
      const { email } = req.body;
      await enforceRateLimit(db, req, RATE_RULES.codeRequest, email);
      const user = await findMemberByEmail(db, email);
      if (!user) throw notFound(AUTH_MESSAGES.noAccount, 'no_account');
      if (user.passwordHash) throw conflict(AUTH_MESSAGES.alreadyHasPassword, 'has_password');
      const code = await issueCode(db, email, user.id);
      app.mailer.sendLater(async () => passwordCodeMail(email, code));
      return { message: 'We sent a 6-digit code to your email. Enter it below to verify your email address.' };
    },
  );

  app.post(
    '/api/auth/set-password/verify-code',
    { config: { access: access.public }, schema: { body: verifyCodeBodySchema, response: { 200: messageSchema } } },
    async (req) => {
      const { email, code } = req.body;
      await enforceRateLimit(db, req, RATE_RULES.codeCheck, email);
      const result = await checkCode(db, email, code, false);
      if (!result.ok) throw codeError(result.reason);
      return { message: AUTH_MESSAGES.emailVerified };
    },
  );

  app.post(
    '/api/auth/set-password',
    { config: { access: access.public }, schema: { body: setPasswordBodySchema, response: { 200: messageSchema } } },
    async (req) => {
      const { email, code, password } = req.body;
      await enforceRateLimit(db, req, RATE_RULES.codeCheck, email);
      const user = await findMemberByEmail(db, email);
      if (!user) throw notFound(AUTH_MESSAGES.noAccount, 'no_account');
      if (user.passwordHash) throw conflict(AUTH_MESSAGES.alreadyHasPassword, 'has_password');
      const passwordHash = await hashPassword(password);
      const result = await checkCode(db, email, code, true);
      if (!result.ok) throw codeError(result.reason);
      // The code proved the email too.
      await updateMember(db, user.id, { passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? new Date() });
      if (!user.emailVerifiedAt) await app.platformSubscribers.applyTo(db, email);
      return { message: AUTH_MESSAGES.passwordSet };
    },
  );

  // Email-only sign-in: a one-time link, and the same reply, as fast, whether or not the email is known:
  // everything that depends on the email happens after the reply.
  app.post(
    '/api/auth/simple-login',
    { config: { access: access.public }, schema: { body: emailBodySchema, response: { 200: messageSchema } } },
    async (req) => {
      const { email } = req.body;
      await enforceRateLimit(db, req, RATE_RULES.signInLink, email);
      const log = req.log;
      app.mailer.sendLater(async () => {
        const user = await findMemberByEmail(db, email);
        // Admins sign in with their password (docs/decisions/0007-accounts-sign-in-and-rate-limits.md); the mail says so instead of carrying a link.
        if (user?.isAdmin) return adminUsesPasswordMail(email, `${app.config.PUBLIC_URL}/auth`, `${app.config.PUBLIC_URL}/forgot-password`);
        if (!user && !(await isPayingSubscriber(email))) {
          log.info('sign-in link asked for an unknown email; nothing sent');
          return null;
        }
        const token = await issueLinkToken(db, 'login_link', email, user?.id ?? null);
        return signInLinkMail(email, link(LINK_PAGES.signIn, token));
      });
      return { message: AUTH_MESSAGES.linkSent };
    },
  );

  async function isPayingSubscriber(email: string): Promise<boolean> {
    const sub = await app.platformSubscribers.find(email);
    return (
      sub !== null &&
      hasActiveSubscription({ isAdmin: false, subscriptionTier: sub.tier, subscriptionStatus: sub.status, subscriptionExpiry: sub.expiry })
    );
  }

  // The sign-in link's page asks whose account the link opens before the member presses the button,
  // so a link an attacker sent cannot quietly sign a victim into the attacker's account.
  app.post(
    '/api/auth/magic/preview',
    { config: { access: access.public }, schema: { body: tokenBodySchema, response: { 200: linkPreviewReplySchema } } },
    async (req, reply) => {
      await enforceRateLimit(db, req, RATE_RULES.followLink);
      reply.header('cache-control', 'no-store');
      const row = await peekLinkToken(db, 'login_link', req.body.token);
      if (!row) throw badRequest(LINK_INVALID_MESSAGE, 'link_invalid');
      return { email: row.email };
    },
  );

  // Signs in on the member's button press (a POST), never on opening the link: mail scanners that
  // open links cannot use them up.
  app.post(
    '/api/auth/magic',
    { config: { access: access.public }, schema: { body: tokenBodySchema, response: { 200: authReplySchema } } },
    async (req, reply) => {
      await enforceRateLimit(db, req, RATE_RULES.followLink);
      const row = await consumeLinkToken(db, 'login_link', req.body.token);
      let user = row ? await userForLink(row.userId, row.email) : null;
      // A member made admin after the link was sent still needs the password.
      if (!user || user.isAdmin) throw badRequest(LINK_INVALID_MESSAGE, 'link_invalid');
      if (!user.emailVerifiedAt) user = await verifyByLink(user);
      await reply.signIn(user.id);
      await recordLogin(db, user.id);
      return { message: 'Signed in', user: toAuthUser(user) };
    },
  );

  /**
   * The first link sign-in into an unverified account proves the email. Whoever registered it may not
   * be its owner: their password goes and their sessions end before the owner is let in and the
   * platforms' records for the email apply.
   */
  async function verifyByLink(user: UserRow): Promise<UserRow> {
    await db.transaction(async (tx) => {
      await updateMember(tx, user.id, { passwordHash: null, emailVerifiedAt: new Date() });
      await deleteUserSessions(tx, user.id);
      await app.platformSubscribers.applyTo(tx, user.email);
    });
    return (await findMemberByEmail(db, user.email)) ?? user;
  }

  app.post(
    '/api/auth/verify-email',
    { config: { access: access.public }, schema: { body: verifyEmailBodySchema, response: { 200: messageSchema } } },
    async (req) => {
      await enforceRateLimit(db, req, RATE_RULES.followLink);
      const { token, password } = req.body;
      const row = await peekLinkToken(db, 'email_verify', token);
      const user = row?.userId ? await findMemberById(db, row.userId) : null;
      // An email changed since the link was sent is not what the link proved.
      if (!row || !user || user.email !== row.email) throw badRequest(AUTH_MESSAGES.verifyLinkInvalid, 'link_invalid');
      // The inbox alone is not enough: whoever registered must confirm (session or password).
      if (req.user?.id !== user.id) {
        if (!password) throw badRequest(AUTH_MESSAGES.verifyNeedsPassword, 'password_required');
        await enforceRateLimit(db, req, RATE_RULES.login, user.email);
        if (!(await verifyPassword(user.passwordHash, password))) throw unauthorized(AUTH_MESSAGES.verifyWrongPassword, 'invalid_credentials');
      }
      if (!(await consumeLinkToken(db, 'email_verify', token))) throw badRequest(AUTH_MESSAGES.verifyLinkInvalid, 'link_invalid');
      if (!user.emailVerifiedAt) {
        await db.transaction(async (tx) => {
          await updateMember(tx, user.id, { emailVerifiedAt: new Date() });
          await app.platformSubscribers.applyTo(tx, user.email);
        });
      }
      return { message: AUTH_MESSAGES.emailConfirmed };
    },
  );

  /** The link's member; a platform subscriber without an account gets one now (docs/decisions/0006-platform-subscriptions-and-members-admin.md). */
  async function userForLink(userId: string | null, email: string): Promise<UserRow | null> {
    if (userId) return findMemberById(db, userId);
    const existing = await findMemberByEmail(db, email);
    if (existing) return existing;
    const sub = await app.platformSubscribers.find(email);
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

  app.post(
    '/api/auth/forgot-password',
    { config: { access: access.public }, schema: { body: emailBodySchema, response: { 200: messageSchema } } },
    async (req) => {
      const { email } = req.body;
      await enforceRateLimit(db, req, RATE_RULES.resetRequest, email);
      app.mailer.sendLater(async () => {
        const user = await findMemberByEmail(db, email);
        if (!user) return null;
        return resetLinkMail(email, link(LINK_PAGES.resetPassword, await issueLinkToken(db, 'password_reset', email, user.id)));
      });
      return { message: AUTH_MESSAGES.resetLinkSent };
    },
  );

  app.post(
    '/api/auth/reset-password',
    { config: { access: access.public }, schema: { body: resetPasswordBodySchema, response: { 200: messageSchema } } },
    async (req) => {
      const { token, password } = req.body;
      await enforceRateLimit(db, req, RATE_RULES.resetConfirm);
      const passwordHash = await hashPassword(password);
      const row = await consumeLinkToken(db, 'password_reset', token);
      if (!row?.userId) throw badRequest(AUTH_MESSAGES.resetLinkInvalid, 'link_invalid');
      const userId = row.userId;
      // The link proved the email: an unverified account is verified now (its platform records apply).
      const user = await updateMember(db, userId, { passwordHash });
      if (user && !user.emailVerifiedAt && user.email === row.email) {
        await updateMember(db, userId, { emailVerifiedAt: new Date() });
        await app.platformSubscribers.applyTo(db, user.email);
      }
      // A reset ends every session: whoever knew the old password is signed out.
      await deleteUserSessions(db, userId);
      return { message: AUTH_MESSAGES.passwordReset };
    },
  );
};

function codeError(reason: 'invalid' | 'expired'): AppError {
  return reason === 'invalid'
    ? badRequest(AUTH_MESSAGES.codeInvalid, 'code_invalid')
    : badRequest(AUTH_MESSAGES.codeExpired, 'code_expired');
}
