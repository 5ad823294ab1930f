import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_MESSAGES,
  changePasswordBodySchema,
  emailBodySchema,
  messageSchema,
  resetPasswordBodySchema,
  setPasswordBodySchema,
  verifyCodeBodySchema,
  verifyEmailBodySchema,
} from '../../../contracts/auth';
import { access } from '../../plugins/access';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import type { AccountContext } from './account-links';
import type { PlatformSubscribers } from './platform-subscribers';
import type { UserRow } from '../../db/schema';
import {
  changePassword,
  checkPasswordCode,
  confirmEmailByLink,
  requestPasswordCode,
  resetLinkMailFor,
  resetPasswordWithLink,
  setPasswordWithCode,
} from './password-service';

/** Setting and resetting a password (a code, or an emailed link) and confirming an email (docs/decisions/0007-accounts-sign-in-and-rate-limits.md, 0013). */
export const passwordRoutes: FastifyPluginAsyncZod<{ platformSubscribers: PlatformSubscribers }> = async (app, { platformSubscribers }) => {
  const { db } = app.database;
  const ctx: AccountContext = { db, platformSubscribers, publicUrl: app.config.PUBLIC_URL };

  // Set password, step 1: prove the email by a code sent to it.
  app.post(
    '/api/auth/set-password/request-code',
    { config: { access: access.public }, schema: { summary: 'Mail a code to set a password', body: emailBodySchema, response: { 200: messageSchema } } },
    async (req) => {
      await enforceRateLimit(db, req, RATE_RULES.codeRequest, req.body.email);
      const mail = await requestPasswordCode(ctx, req.body.email);
      app.mailer.sendLater(async () => mail);
      return { message: 'We sent a 6-digit code to your email. Enter it below to verify your email address.' };
    },
  );

  app.post(
    '/api/auth/set-password/verify-code',
    { config: { access: access.public }, schema: { summary: 'Check a set-password code', body: verifyCodeBodySchema, response: { 200: messageSchema } } },
    async (req) => {
      await enforceRateLimit(db, req, RATE_RULES.codeCheck, req.body.email);
      await checkPasswordCode(ctx, req.body.email, req.body.code);
      return { message: AUTH_MESSAGES.emailVerified };
    },
  );

  app.post(
    '/api/auth/set-password',
    { config: { access: access.public }, schema: { summary: 'Set a password with a code', body: setPasswordBodySchema, response: { 200: messageSchema } } },
    async (req) => {
      await enforceRateLimit(db, req, RATE_RULES.codeCheck, req.body.email);
      await setPasswordWithCode(ctx, req.body);
      return { message: AUTH_MESSAGES.passwordSet };
    },
  );

  // A signed-in member changes their password with the current one; their other sessions end.
  app.post(
    '/api/auth/change-password',
    {
      config: { access: access.member },
      schema: { summary: 'Change my password', body: changePasswordBodySchema, response: { 200: messageSchema } },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      await changePassword(ctx, {
        member: req.user as UserRow,
        sessionIdHash: req.sessionIdHash,
        currentPassword: req.body.currentPassword,
        newPassword: req.body.newPassword,
        limitPasswordTries: (email) => enforceRateLimit(db, req, RATE_RULES.login, email),
      });
      return { message: AUTH_MESSAGES.passwordChanged };
    },
  );

  app.post(
    '/api/auth/verify-email',
    { config: { access: access.public }, schema: { summary: 'Verify an email address', body: verifyEmailBodySchema, response: { 200: messageSchema } } },
    async (req) => {
      await enforceRateLimit(db, req, RATE_RULES.followLink);
      await confirmEmailByLink(ctx, {
        ...req.body,
        signedInUserId: req.user?.id,
        limitPasswordTries: (email) => enforceRateLimit(db, req, RATE_RULES.login, email),
      });
      return { message: AUTH_MESSAGES.emailConfirmed };
    },
  );

  app.post(
    '/api/auth/forgot-password',
    { config: { access: access.public }, schema: { summary: 'Mail a password reset link', body: emailBodySchema, response: { 200: messageSchema } } },
    async (req) => {
      const { email } = req.body;
      await enforceRateLimit(db, req, RATE_RULES.resetRequest, email);
      app.mailer.sendLater(() => resetLinkMailFor(ctx, email));
      return { message: AUTH_MESSAGES.resetLinkSent };
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      config: { access: access.public },
      schema: { summary: 'Reset a password with a reset link', body: resetPasswordBodySchema, response: { 200: messageSchema } },
    },
    async (req) => {
      await enforceRateLimit(db, req, RATE_RULES.resetConfirm);
      await resetPasswordWithLink(ctx, req.body.token, req.body.password);
      return { message: AUTH_MESSAGES.passwordReset };
    },
  );
};
