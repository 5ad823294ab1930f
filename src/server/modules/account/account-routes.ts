import type { CommentsCache } from '../comments/comments-cache';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ACCOUNT_MESSAGES, deleteAccountBodySchema, emailChangeBodySchema, ownDataExportSchema } from '../../../contracts/account';
import { messageSchema, tokenBodySchema } from '../../../contracts/auth';
import type { UserRow } from '../../db/schema';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { access } from '../../plugins/access';
import { accountDeleteMailFor, confirmEmailChange, deleteOwnAccount, exportOwnData, requestEmailChange } from './account-service';

/** A member's own data and account: export, deletion, email change (docs/decisions/0028-members-own-data.md). */
export const accountRoutes: FastifyPluginAsyncZod<{ commentsCache: CommentsCache }> = async (app, { commentsCache }) => {
  const { db } = app.database;
  const publicUrl = app.config.PUBLIC_URL;

  app.get(
    '/api/me/export',
    { config: { access: access.member }, schema: { summary: 'Everything the station holds about me', response: { 200: ownDataExportSchema } } },
    async (req, reply) => {
      const data = await exportOwnData(db, req.user as UserRow);
      reply.header('cache-control', 'no-store');
      reply.header('content-disposition', `attachment; filename="dhr-my-data-${data.exportedAt.slice(0, 10)}.json"`);
      return data;
    },
  );

  app.delete(
    '/api/me',
    { config: { access: access.member }, schema: { summary: 'Delete my account', body: deleteAccountBodySchema, response: { 200: messageSchema } } },
    async (req, reply) => {
      await enforceRateLimit(db, req, RATE_RULES.accountConfirm);
      const discussions = await deleteOwnAccount(db, req.user as UserRow, req.body);
      for (const id of discussions) await commentsCache.changed(id);
      await reply.signOut();
      return { message: ACCOUNT_MESSAGES.accountDeleted };
    },
  );

  app.post(
    '/api/me/delete-link',
    { config: { access: access.member }, schema: { summary: 'Mail me a link to delete my account', response: { 200: messageSchema } } },
    async (req) => {
      await enforceRateLimit(db, req, RATE_RULES.accountMail);
      const mail = await accountDeleteMailFor(db, publicUrl, req.user as UserRow);
      app.mailer.sendLater(async () => mail);
      return { message: ACCOUNT_MESSAGES.deleteLinkSent };
    },
  );

  app.post(
    '/api/me/email',
    {
      config: { access: access.member },
      schema: { summary: 'Change my email (mails a confirmation)', body: emailChangeBodySchema, response: { 200: messageSchema } },
    },
    async (req) => {
      await enforceRateLimit(db, req, RATE_RULES.accountMail);
      const mails = await requestEmailChange(db, publicUrl, req.user as UserRow, req.body);
      for (const mail of mails) app.mailer.sendLater(async () => mail);
      return { message: mails.length > 1 ? ACCOUNT_MESSAGES.emailChangeSentBoth : ACCOUNT_MESSAGES.emailChangeSent };
    },
  );

  // The links are the proof: they work from any browser, signed in or not.
  app.post(
    '/api/me/email/confirm',
    { config: { access: access.public }, schema: { summary: 'Confirm an email change', body: tokenBodySchema, response: { 200: messageSchema } } },
    async (req) => {
      await enforceRateLimit(db, req, RATE_RULES.followLink);
      const { message, notice } = await confirmEmailChange(db, req.body.token, req.sessionIdHash);
      if (notice) app.mailer.sendLater(async () => notice);
      return { message };
    },
  );
};
