import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { TOKEN_FRAGMENT_KEY } from '../../../contracts/auth';
import { NEWSLETTER_PAGES, newsletterBodySchema, newsletterReplySchema, newsletterTokenBodySchema } from '../../../contracts/shop';
import { SHOP_MESSAGES } from '../../../contracts/shop-values';
import { HOUR_MS } from '../../../contracts/time';
import { composeMail } from '../../lib/mail';
import { badRequest } from '../../lib/errors';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { hashToken, randomToken } from '../../lib/tokens';
import { access } from '../../plugins/access';
import { confirmOptIn, requestOptIn, unsubscribe } from './newsletter-repository';

/** How long a confirmation link works. */
export const NEWSLETTER_CONFIRM_TTL_MS = 48 * HOUR_MS;

/**
 * The shop's newsletter box, double opt-in (docs/decisions/0018-live-monitor-shop-submissions.md): an
 * address is confirmed by the link mailed to it, and every mail after that carries a one-press
 * unsubscribe link. Secrets ride in the links' fragments, so no request log holds them.
 */
export const newsletterRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const link = (path: string, token: string) => `${app.config.PUBLIC_URL}${path}#${TOKEN_FRAGMENT_KEY}=${encodeURIComponent(token)}`;

  app.post(
    '/api/newsletter',
    {
      config: { access: access.public },
      schema: { summary: 'Subscribe to the newsletter', body: newsletterBodySchema, response: { 202: newsletterReplySchema } },
    },
    async (req, reply) => {
      const { email } = req.body;
      await enforceRateLimit(db, req, RATE_RULES.newsletter, email);
      const token = randomToken();
      const row = await requestOptIn(db, email, hashToken(token), new Date(Date.now() + NEWSLETTER_CONFIRM_TTL_MS));
      // The same answer whether or not the address was already on the list.
      if (row) {
        app.mailer.sendLater(async () =>
          composeMail({
            to: email,
            subject: 'Confirm your Deep House Radio newsletter subscription',
            greeting: 'Hi,',
            paragraphs: [
              'Someone (hopefully you) asked to get the Deep House Radio newsletter at this address: new merch, vinyl drops and shop deals.',
              `Confirm with the button below; the link works for ${Math.round(NEWSLETTER_CONFIRM_TTL_MS / HOUR_MS)} hours. Until then we send you nothing else.`,
            ],
            action: { label: 'Confirm my subscription', url: link(NEWSLETTER_PAGES.confirm, token) },
            footer: 'If you did not ask for this, ignore this email: without the confirmation you are not subscribed.',
          }),
        );
      }
      return reply.status(202).send({ message: SHOP_MESSAGES.newsletterCheckInbox });
    },
  );

  app.post(
    '/api/newsletter/confirm',
    {
      config: { access: access.public },
      schema: { summary: 'Confirm a newsletter subscription', body: newsletterTokenBodySchema, response: { 200: newsletterReplySchema } },
    },
    async (req) => {
      await enforceRateLimit(db, req, RATE_RULES.newsletterLink);
      const unsubscribeToken = randomToken();
      const row = await confirmOptIn(db, hashToken(req.body.token), hashToken(unsubscribeToken), new Date());
      if (!row) throw badRequest(SHOP_MESSAGES.newsletterLinkInvalid, 'link_invalid');
      app.mailer.sendLater(async () =>
        composeMail({
          to: row.email,
          subject: "You're on the Deep House Radio newsletter",
          greeting: 'Hi,',
          paragraphs: ['Your subscription is confirmed. We will write when new merch, vinyl and deals land in the shop.'],
          action: { label: 'Unsubscribe', url: link(NEWSLETTER_PAGES.unsubscribe, unsubscribeToken) },
          footer: 'One press on the unsubscribe link above takes you off the list at any time.',
        }),
      );
      return { message: SHOP_MESSAGES.newsletterConfirmed };
    },
  );

  app.post(
    '/api/newsletter/unsubscribe',
    {
      config: { access: access.public },
      schema: { summary: 'Unsubscribe from the newsletter', body: newsletterTokenBodySchema, response: { 200: newsletterReplySchema } },
    },
    async (req) => {
      await enforceRateLimit(db, req, RATE_RULES.newsletterLink);
      const row = await unsubscribe(db, hashToken(req.body.token), new Date());
      if (!row) throw badRequest(SHOP_MESSAGES.newsletterLinkInvalid, 'link_invalid');
      return { message: SHOP_MESSAGES.newsletterUnsubscribed };
    },
  );
};
