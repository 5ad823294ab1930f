import { describe, expect, it } from 'vitest';
import { siteConfigSchema } from '../../src/contracts/site';
import { createTestApp } from '../support/app';

describe('GET /api/site-config', async () => {
  const app = await createTestApp({
    PATREON_PAGE_URL: 'https://www.patreon.com/dhr-test',
    BMC_PAGE_URL: 'https://www.buymeacoffee.com/dhr-test',
    SHOP_STORE_URL: 'https://shop.example.test/dhr',
  });

  it('tells anyone where to subscribe, from PATREON_PAGE_URL and BMC_PAGE_URL, and the store from SHOP_STORE_URL', async () => {
    const res = await app.inject('/api/site-config');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      patreonPageUrl: 'https://www.patreon.com/dhr-test',
      bmcPageUrl: 'https://www.buymeacoffee.com/dhr-test',
      shopStoreUrl: 'https://shop.example.test/dhr',
    });
    expect(siteConfigSchema.safeParse(res.json()).success).toBe(true);
  });

  it('is a public route and refuses writes', async () => {
    expect(app.routePolicies).toContainEqual(expect.objectContaining({ method: 'GET', url: '/api/site-config', access: { kind: 'public' } }));
    const res = await app.inject({ method: 'POST', url: '/api/site-config', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
  });
});
