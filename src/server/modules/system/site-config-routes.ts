import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { siteConfigSchema, type SiteConfig } from '../../../contracts/site';
import { access } from '../../plugins/access';

/** The public settings the web app shows: where to subscribe (PATREON_PAGE_URL, BMC_PAGE_URL) and the shop's store (SHOP_STORE_URL). */
export const siteConfigRoutes: FastifyPluginAsyncZod = async (app) => {
  const body: SiteConfig = { patreonPageUrl: app.config.PATREON_PAGE_URL, bmcPageUrl: app.config.BMC_PAGE_URL, shopStoreUrl: app.config.SHOP_STORE_URL };
  app.get(
    '/api/site-config',
    { config: { access: access.public, sharedAnswer: true }, schema: { summary: "The site's public settings", response: { 200: siteConfigSchema } } },
    async (_req, reply) => {
      // Fixed for the life of the process; browsers may keep it a while.
      reply.header('cache-control', 'public, max-age=300');
      return body;
    },
  );
};
