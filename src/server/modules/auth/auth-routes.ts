import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUTH_MESSAGES,
  LINK_ERROR_PARAM,
  authReplySchema,
  authUserSchema,
  emailBodySchema,
  loginBodySchema,
  messageSchema,
  registerBodySchema,
  resetPasswordBodySchema,
  sessionUserReplySchema,
  setPasswordBodySchema,
  userExistsReplySchema,
  verifyCodeBodySchema,
} from '../../../contracts/auth';
import { hasActiveSubscription, permissionsSchema } from '../../../contracts/tier-policy';
import type { UserRow } from '../../db/schema';
import { type AppError, badRequest, conflict, notFound } from '../../lib/errors';
import { access } from '../../plugins/access';
import { deleteExpiredSessions, deleteUserSessions } from '../../lib/sessions';
import { checkCode, consumeLinkToken, deleteDeadTokens, issueCode, issueLinkToken } from './auth-tokens';
import { adminUsesPasswordMail, passwordCodeMail, resetLinkMail, signInLinkMail } from './mails';
import { hashPassword } from './passwords';
import { passwordSignIn } from './password-sign-in';
import { memberPermissions } from './permissions';
import { deleteExpiredRateLimits, enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { toAuthUser, usernameFromEmail } from '../members/member-views';
import { EmailTakenError, findMemberByEmail, findMemberById, insertMember, recordLogin, updateMember } from '../members/members-repository';
import { MINUTE_MS } from '../../../contracts/time';

/** Sign-up, sign-in (password, one-time link), sign-out, password setting and the member's own views (docs/decisions/0007-accounts-sign-in-and-rate-limits.md). */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const link = (path: string, token: string) => `${app.config.PUBLIC_URL}${path}?token=${encodeURIComponent(token)}`;

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
      // Registration does not prove the email; a supporter's email must be proven by a sign-in link
      // first, or the platform sync would hand their tier to whoever registered it.
      if (await app.platformSubscribers.find(email)) throw conflict(AUTH_MESSAGES.supporterUseLink, 'supporter_use_link');
      const passwordHash = await hashPassword(password);
      let user: UserRow;
      try {
        user = await insertMember(db, { email, username, passwordHash });
      } catch (err) {
        // A parallel registration of the same email won the race.
        if (err instanceof EmailTakenError) throw conflict(AUTH_MESSAGES.emailTaken, 'email_taken');
        throw err;
      }
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
      await app.mailer.send(passwordCodeMail(email, code));
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
      await updateMember(db, user.id, { passwordHash });
      return { message: AUTH_MESSAGES.passwordSet };
    },
  );

  // Email-only sign-in: a one-time link, and the same reply whether or not the email is known.
  app.post(
    '/api/auth/simple-login',
    { config: { access: access.public }, schema: { body: emailBodySchema, response: { 200: messageSchema } } },
    async (req) => {
      const { email } = req.body;
      await enforceRateLimit(db, req, RATE_RULES.signInLink, email);
      const user = await findMemberByEmail(db, email);
      const subscriber = user ? null : await app.platformSubscribers.find(email);
      const eligible =
        user !== null ||
        (subscriber !== null &&
          hasActiveSubscription({
            isAdmin: false,
            subscriptionTier: subscriber.tier,
            subscriptionStatus: subscriber.status,
            subscriptionExpiry: subscriber.expiry,
          }));
      if (user?.isAdmin) {
        // Admins sign in with their password (docs/decisions/0007-accounts-sign-in-and-rate-limits.md); the mail says so instead of carrying a link.
        await app.mailer.send(adminUsesPasswordMail(email, `${app.config.PUBLIC_URL}/auth`, `${app.config.PUBLIC_URL}/forgot-password`));
      } else if (eligible) {
        const token = await issueLinkToken(db, 'login_link', email, user?.id ?? null);
        await app.mailer.send(signInLinkMail(email, link('/api/auth/magic', token)));
      } else {
        req.log.info('sign-in link asked for an unknown email; nothing sent');
      }
      return { message: AUTH_MESSAGES.linkSent };
    },
  );

  app.get(
    '/api/auth/magic',
    { config: { access: access.public }, schema: { querystring: z.object({ token: z.string().max(500).optional() }) } },
    async (req, reply) => {
      await enforceRateLimit(db, req, RATE_RULES.followLink);
      const invalid = () => reply.redirect(`/simple-auth?${LINK_ERROR_PARAM}=invalid`, 303);
      const token = req.query.token;
      if (!token || token.length < 16) return invalid();
      const row = await consumeLinkToken(db, 'login_link', token);
      if (!row) return invalid();
      const user = await userForLink(row.userId, row.email);
      // A member made admin after the link was sent still needs the password.
      if (!user || user.isAdmin) return invalid();
      await reply.signIn(user.id);
      await recordLogin(db, user.id);
      return reply.redirect('/', 303);
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
      const user = await findMemberByEmail(db, email);
      if (user) {
        const token = await issueLinkToken(db, 'password_reset', email, user.id);
        await app.mailer.send(resetLinkMail(email, link('/reset-password', token)));
      }
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
      await updateMember(db, row.userId, { passwordHash });
      // A reset ends every session: whoever knew the old password is signed out.
      await deleteUserSessions(db, row.userId);
      return { message: AUTH_MESSAGES.passwordReset };
    },
  );
};

function codeError(reason: 'invalid' | 'expired'): AppError {
  return reason === 'invalid'
    ? badRequest(AUTH_MESSAGES.codeInvalid, 'code_invalid')
    : badRequest(AUTH_MESSAGES.codeExpired, 'code_expired');
}
