import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { vipMixListSchema } from '../../src/contracts/mixes';
import { PAGE_START_READS } from '../../src/contracts/routes';
import { shopProductListSchema } from '../../src/contracts/shop';
import { compareFeatured } from '../../src/contracts/shop-values';
import { PageHints } from '../../src/server/plugins/page-hints';
import { createTestApp, memberWithRole } from '../support/app';

/** A web build whose index.html has a head, as the real one does. */
function webRoot(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dhr-web-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><title>DHR</title></head><body><div id="root"></div></body></html>');
  return dir;
}

const fetchPreloads = (html: string) => [...html.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
const imagePreloads = (html: string) => [...html.matchAll(/<link rel="preload" as="image" fetchpriority="high" href="([^"]+)">/g)].map((m) => m[1]);

describe('page hints: what a page asks for with its HTML', async () => {
  const app = await createTestApp({}, {}, { webRoot: webRoot() });
  const admin = await memberWithRole(app, 'admin');
  const page = async (url: string) => {
    const res = await app.inject(url);
    return { status: res.statusCode, html: res.body };
  };

  it("lists every page's start reads, then the page's own, and none on a pop-out player or a 404", async () => {
    expect(fetchPreloads((await page('/')).html)).toEqual(PAGE_START_READS['*']);
    expect(fetchPreloads((await page('/forum')).html)).toEqual([...(PAGE_START_READS['*'] ?? []), ...(PAGE_START_READS['/forum'] ?? [])]);
    expect(fetchPreloads((await page('/shop/')).html)).toEqual([...(PAGE_START_READS['*'] ?? []), ...(PAGE_START_READS['/shop'] ?? [])]);
    expect(fetchPreloads((await page('/player/dhr1')).html)).toEqual([]);
    const missing = await page('/no-such-page');
    expect(missing.status).toBe(404);
    expect(missing.html).not.toContain('rel="preload"');
  });

  it('names the first mix of the library on /vip, as GET /api/vip-mixes orders it', async () => {
    const mixes = vipMixListSchema.parse((await app.inject('/api/vip-mixes')).json());
    expect(mixes[0]?.artworkUrl).toMatch(/^\//);
    expect(imagePreloads((await page('/vip')).html)).toEqual([mixes[0]?.artworkUrl]);
  });

  it("names the shop's first card in its default order, and follows the catalogue when an admin changes it", async () => {
    const shopLead = async () => {
      const list = shopProductListSchema.parse((await app.inject('/api/shop/products')).json());
      return list.toSorted(compareFeatured)[0]?.images[0];
    };
    expect(imagePreloads((await page('/shop')).html)).toEqual([await shopLead()]);

    const lead = {
      id: `lead_${Date.now()}`,
      name: 'Lead Tee',
      price: 20,
      category: 'clothing',
      images: ['/images/shop/lead-tee.svg'],
      description: 'First in the featured order.',
      rating: 5,
      reviews: 1,
      inStock: true,
      featured: true,
      tags: ['tee'],
      isActive: true,
    };
    const created = await app.inject({ method: 'POST', url: '/api/admin/shop/products', headers: { cookie: admin.cookie }, payload: lead });
    expect(created.statusCode).toBe(201);
    await vi.waitFor(async () => expect(imagePreloads((await page('/shop')).html)).toEqual(['/images/shop/lead-tee.svg']));
    expect(await shopLead()).toBe('/images/shop/lead-tee.svg');

    // An image on another host is not preloaded: the hint names only the site's own files.
    const edited = await app.inject({
      method: 'PATCH',
      url: `/api/admin/shop/products/${lead.id}`,
      headers: { cookie: admin.cookie },
      payload: { images: ['https://images.example.test/lead.png'] },
    });
    expect(edited.statusCode).toBe(200);
    await vi.waitFor(async () => expect(await shopLead()).toBe('https://images.example.test/lead.png'));
    expect(imagePreloads((await page('/shop')).html)).toEqual([]);
  });
});

describe('PageHints', () => {
  it('escapes what it writes into an attribute and skips a module that holds nothing yet', () => {
    const hints = new PageHints({ '*': ['/api/a?x=1&y="2"'] });
    const held: { image?: string } = {};
    hints.leadImage('/mixes/:mix', () => held.image);
    expect(hints.linksFor('/mixes/forest-floor')).toBe('<link rel="preload" as="fetch" crossorigin href="/api/a?x=1&amp;y=&quot;2&quot;">');
    held.image = '/images/a"b.svg';
    expect(hints.linksFor('/mixes/forest-floor')).toContain('href="/images/a&quot;b.svg"');
    expect(hints.linksFor('/mixes')).not.toContain('as="image"');
  });
});
