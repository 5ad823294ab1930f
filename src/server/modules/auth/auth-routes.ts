import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_MESSAGES,
  LINK_INVALID_MESSAGE,
  authReplySchema,
  authUserSchema,
  emailBodySchema,
  linkPreviewReplySchema,
  loginBodySchema,
  messageSchema,
  registerBodySchema,
  sessionUserReplySchema,
  tokenBodySchema,
  userExistsReplySchema,
  verifyCodeBodySchema,
} from '../../../contracts/auth';
import { permissionsSchema } from '../../../contracts/member-schemas';
import type { UserRow } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { access } from '../../plugins/access';
import { peekLinkToken } from './auth-tokens';
import { passwordSignIn } from './password-sign-in';
import { memberPermissions } from './permissions';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { toAuthUser } from '../members/member-views';
import { findMemberByEmail, recordLogin } from '../members/members-repository';
import type { AccountContext } from './account-links';
import type { PlatformSubscribers } from './platform-subscribers';
import { registerMember } from './registration-service';
import { credentialsChanged } from '../../lib/sessions';
import { memberForSignInCode, memberForSignInLink, signInLinkMailFor } from './sign-in-link-service';

/** Sign-up, sign-in (password, one-time link), sign-out and the member's own views (passwords: password-routes.ts) (docs/decisions/0007-accounts-sign-in-and-rate-limits.md, 0013). */
export const authRoutes: FastifyPluginAsyncZod<{ platformSubscribers: PlatformSubscribers }> = async (app, { platformSubscribers }) => {
  const { db } = app.database;
  const ctx: AccountContext = { db, platformSubscribers, publicUrl: app.config.PUBLIC_URL };

  app.post(
    '/api/auth/register',
    { config: { access: access.public }, schema: { summary: 'Create an account', body: registerBodySchema, response: { 201: authReplySchema } } },
    async (req, reply) => {
      await enforceRateLimit(db, req, RATE_RULES.register, req.body.email);
      const { user, verificationMail } = await registerMember(ctx, req.body);
      app.mailer.sendLater(verificationMail);
      // The spec's flow: register, then sign in with the new account.
      return reply.status(201).send({ message: AUTH_MESSAGES.registrationSuccess, user: toAuthUser(user) });
    },
  );

  app.post(
    '/api/auth/email-login-secure',
    { config: { access: access.public }, schema: { summary: 'Sign in with email and password', body: loginBodySchema, response: { 200: authReplySchema } } },
    async (req, reply) => passwordSignIn(db, req, reply, req.body),
  );

  app.post(
    '/api/auth/logout',
    { config: { access: access.public }, schema: { summary: 'Sign out', response: { 200: messageSchema } } },
    async (_req, reply) => {
      await reply.signOut();
      return { message: 'Signed out' };
    },
  );

  // Ends every other session of the member, and their outstanding links and codes (lib/sessions.ts).
  app.post(
    '/api/auth/logout-everywhere',
    { config: { access: access.member }, schema: { summary: 'Sign out on every other device', response: { 200: messageSchema } } },
    async (req) => {
      const member = req.user as UserRow;
      const keepSession = req.sessionIdHash ?? undefined;
      await db.transaction((tx) => credentialsChanged(tx, member.id, 'signed_out_everywhere', { keepSession }));
      return { message: AUTH_MESSAGES.signedOutEverywhere };
    },
  );

  app.get('/api/auth/me', { config: { access: access.member }, schema: { summary: 'The signed-in member', response: { 200: authUserSchema } } }, async (req) =>
    toAuthUser(req.user as UserRow),
  );

  app.get(
    '/api/auth/session-user',
    { config: { access: access.public }, schema: { summary: "The session's member, or none", response: { 200: sessionUserReplySchema } } },
    async (req) => ({
      user: req.user ? toAuthUser(req.user) : null,
    }),
  );

  app.get(
    '/api/user/permissions',
    { config: { access: access.public }, schema: { summary: 'What the session may use now', response: { 200: permissionsSchema } } },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return memberPermissions(db, req.user);
    },
  );

  // An account-enumeration oracle the spec's set-password page needs: kept, but limited hard.
  app.post(
    '/api/auth/check-user-exists',
    {
      config: { access: access.public },
      schema: { summary: 'Whether an email has an account', body: emailBodySchema, response: { 200: userExistsReplySchema } },
    },
    async (req) => {
      const { email } = req.body;
      await enforceRateLimit(db, req, RATE_RULES.checkUser, email);
      const user = await findMemberByEmail(db, email);
      return { exists: user !== null, hasPassword: user?.passwordHash != null };
    },
  );

  mailSignInRoutes(app, ctx);
};

type App = Parameters<FastifyPluginAsyncZod<{ platformSubscribers: PlatformSubscribers }>>[0];

/** Sign-in by mail: the link (its preview and its use) and the code of the same mail. */
function mailSignInRoutes(app: App, ctx: AccountContext): void {
  const { db } = ctx;
  // Email-only sign-in: a one-time link, and the same reply, as fast, whether or not the email is known:
  // everything that depends on the email happens after the reply.
  app.post(
    '/api/auth/simple-login',
    { config: { access: access.public }, schema: { summary: 'Sign in (the simple form)', body: emailBodySchema, response: { 200: messageSchema } } },
    async (req) => {
      const { email } = req.body;
      await enforceRateLimit(db, req, RATE_RULES.signInLink, email);
      const log = req.log;
      app.mailer.sendLater(async () => {
        const mail = await signInLinkMailFor(ctx, email);
        if (!mail) log.info('sign-in link asked for an unknown email; nothing sent');
        return mail;
      });
      return { message: AUTH_MESSAGES.linkSent };
    },
  );

  // The sign-in link's page asks whose account the link opens before the member presses the button,
  // so a link an attacker sent cannot quietly sign a victim into the attacker's account.
  app.post(
    '/api/auth/magic/preview',
    {
      config: { access: access.public },
      schema: { summary: 'Check a sign-in link before using it', body: tokenBodySchema, response: { 200: linkPreviewReplySchema } },
    },
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
    { config: { access: access.public }, schema: { summary: 'Sign in with a sign-in link', body: tokenBodySchema, response: { 200: authReplySchema } } },
    async (req, reply) => {
      await enforceRateLimit(db, req, RATE_RULES.followLink);
      const user = await memberForSignInLink(ctx, req.body.token);
      await reply.signIn(user.id);
      await recordLogin(db, user.id);
      return { message: 'Signed in', user: toAuthUser(user) };
    },
  );

  // The code in the sign-in mail, for another device than the one that reads mail. In the body, never
  // in a URL; limited per address and per email on top of the code's own tries (auth-tokens.ts).
  app.post(
    '/api/auth/code-login',
    { config: { access: access.public }, schema: { summary: 'Sign in with the emailed code', body: verifyCodeBodySchema, response: { 200: authReplySchema } } },
    async (req, reply) => {
      await enforceRateLimit(db, req, RATE_RULES.codeCheck, req.body.email);
      const user = await memberForSignInCode(ctx, req.body.email, req.body.code);
      await reply.signIn(user.id);
      await recordLogin(db, user.id);
      return { message: AUTH_MESSAGES.codeSignedIn, user: toAuthUser(user) };
    },
  );
}
