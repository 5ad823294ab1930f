import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CONTACT_MESSAGES,
  contactInboxQuerySchema,
  contactMessageListSchema,
  contactMessageParamsSchema,
  contactMessageSchema,
  contactResponseSchema,
  contactSchema,
} from '../../../contracts/community';
import { errorEnvelopeSchema } from '../../../contracts/errors';
import { unauthorized } from '../../lib/errors';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { access } from '../../plugins/access';
import { contactInbox, contactMail, receiveContact, setHandled } from './contact-service';

/** The contact form (POST /api/contact) and the admins' contact inbox. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  app.post(
    '/api/contact',
    // Public: visitors write too; a signed-in VIP's message is marked priority.
    { config: { access: access.public }, schema: { summary: 'Send a message to the station', body: contactSchema, response: { 201: contactResponseSchema } } },
    async (req, reply) => {
      await enforceRateLimit(db, req, RATE_RULES.contact);
      const row = await receiveContact(db, req.body, req.user);
      const to = app.config.CONTACT_EMAIL;
      if (row && to) app.mailer.sendLater(async () => contactMail(to, row, app.config.PUBLIC_URL));
      else if (row) req.log.warn('CONTACT_EMAIL is not set: the message is in the admin contact inbox only');
      return reply.status(201).send({ message: CONTACT_MESSAGES.sent });
    },
  );

  app.get(
    '/api/admin/contact-messages',
    {
      config: { access: access.admin },
      schema: { summary: "The contact form's messages", querystring: contactInboxQuerySchema, response: { 200: contactMessageListSchema } },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return contactInbox(db, req.query.status);
    },
  );

  // PATCH marks a message handled (by the caller); DELETE opens it again.
  for (const method of ['PATCH', 'DELETE'] as const) {
    app.route({
      method,
      url: '/api/admin/contact-messages/:id/handled',
      config: { access: access.admin },
      schema: { params: contactMessageParamsSchema, response: { 200: contactMessageSchema, 409: errorEnvelopeSchema } },
      handler: async (req) => {
        if (!req.user) throw unauthorized();
        return setHandled(db, req.params.id, req.user.id, method === 'PATCH');
      },
    });
  }
};

export const contactRoutes = fp(routes, { name: 'contact' });
