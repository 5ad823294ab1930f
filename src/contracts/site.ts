import { z } from 'zod';

/** GET /api/site-config: what the web app needs to know of the deployment (public). */
export const siteConfigSchema = z.object({
  /** The membership platform page where listeners subscribe (PATREON_PAGE_URL). */
  patreonPageUrl: z.string().url(),
  /** The tip platform page where listeners support DHR (BMC_PAGE_URL). */
  bmcPageUrl: z.string().url(),
  /** The print-on-demand store the shop's checkout opens (SHOP_STORE_URL). */
  shopStoreUrl: z.string().url(),
});
export type SiteConfig = z.infer<typeof siteConfigSchema>;
