import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  productCreateSchema,
  productParamsSchema,
  productPatchSchema,
  shopProductListSchema,
  shopProductSchema,
  type ShopProduct,
} from '../../../contracts/shop';
import { compareFeatured, SHOP_MESSAGES } from '../../../contracts/shop-values';
import { conflict, notFound } from '../../lib/errors';
import { access } from '../../plugins/access';
import type { MemoryAnswer } from '../../plugins/memory-answers';
import { deleteProduct, insertProduct, listActiveProducts, listAllProducts, ProductExistsError, updateProduct } from './shop-repository';
import { toShopProduct } from './shop-views';
import { noContentReply, preSerializedJson } from '../../plugins/reply-schemas';

/** NOTIFY channel telling every instance the catalogue changed (their cached product lists are dropped). */
export const SHOP_PRODUCTS_CHANNEL = 'shop_products';
const CATALOGUE_CACHE_CONTROL = 'public, max-age=60';

/**
 * The shop's catalogue (docs/decisions/0018-live-monitor-shop-submissions.md): the public list is
 * served from memory until an admin changes a product, on any instance (docs/conventions.md, NOTIFY).
 */
export const shopRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  let cached: MemoryAnswer | undefined;
  // One read at a time: the /shop page's HTML, its preload and the list route all ask for the list
  // at once after a catalogue change.
  let reading: Promise<string> | undefined;
  /** The first image of the shop's first card (its default order): /shop's HTML preloads it. */
  let leadImage: string | undefined;
  // Bumped on every drop, so a read that began before a change never caches the old list.
  let generation = 0;
  const dropCache = () => {
    cached = undefined;
    leadImage = undefined;
    // A read begun before the change is not shared with requests after it.
    reading = undefined;
    generation += 1;
  };
  const announce = async () => {
    dropCache();
    await app.database.notify(SHOP_PRODUCTS_CHANNEL, 'changed').catch((err: unknown) => app.log.warn({ err }, 'could not announce a catalogue change'));
  };

  let unlisten: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    unlisten = await app.database.listen(SHOP_PRODUCTS_CHANNEL, dropCache);
    // Read once at start, so the first visitor's /shop already names its lead image.
    void activeProductsJson().catch(() => undefined);
  });
  app.addHook('preClose', async () => unlisten?.());

  function activeProductsJson(): Promise<string> {
    if (cached) return Promise.resolve(cached.body);
    if (reading) return reading;
    const read = readActiveProducts().finally(() => {
      if (reading === read) reading = undefined;
    });
    reading = read;
    return read;
  }
  async function readActiveProducts(): Promise<string> {
    const started = generation;
    const list: ShopProduct[] = (await listActiveProducts(db)).map(toShopProduct);
    const body = JSON.stringify(list);
    if (started === generation) {
      cached = { body, cacheControl: CATALOGUE_CACHE_CONTROL };
      leadImage = list.toSorted(compareFeatured)[0]?.images[0];
    }
    return body;
  }
  app.pageHints.leadImage('/shop', () => {
    // Not read yet on this instance: read now, so the next visitor's HTML names it.
    if (!cached) void activeProductsJson().catch(() => undefined);
    return leadImage;
  });

  // The list in memory is answered before routing (plugins/memory-answers.ts).
  const fromMemory = (_params: unknown, query: string) => (query === '' ? cached : undefined);
  app.get('/api/shop/products', { config: { access: access.public, sharedAnswer: true, fromMemory }, schema: { response: { 200: shopProductListSchema } } }, async (_req, reply) => {
    reply.header('cache-control', CATALOGUE_CACHE_CONTROL).type('application/json; charset=utf-8');
    // While the database is away the cached list still answers; with nothing cached it is a 503,
    // which the shop shows as an error (its fallback catalogue is for network errors only).
    return preSerializedJson<ShopProduct[]>(await activeProductsJson());
  });

  app.get(
    '/api/admin/shop/products',
    { config: { access: access.admin }, schema: { response: { 200: shopProductListSchema } } },
    async () => (await listAllProducts(db)).map(toShopProduct),
  );

  app.post(
    '/api/admin/shop/products',
    { config: { access: access.admin }, schema: { body: productCreateSchema, response: { 201: shopProductSchema } } },
    async (req, reply) => {
      const b = req.body;
      let row;
      try {
        row = await insertProduct(db, {
          ...b,
          originalPrice: b.originalPrice ?? null,
          sizes: b.sizes ?? null,
          colors: b.colors ?? null,
          redbubbleUrl: b.redbubbleUrl ?? null,
        });
      } catch (err) {
        if (err instanceof ProductExistsError) throw conflict(SHOP_MESSAGES.productExists, 'product_exists');
        throw err;
      }
      await announce();
      return reply.status(201).send(toShopProduct(row));
    },
  );

  app.patch(
    '/api/admin/shop/products/:id',
    { config: { access: access.admin }, schema: { params: productParamsSchema, body: productPatchSchema, response: { 200: shopProductSchema } } },
    async (req) => {
      const row = await updateProduct(db, req.params.id, req.body);
      if (!row) throw notFound(SHOP_MESSAGES.productNotFound);
      await announce();
      return toShopProduct(row);
    },
  );

  app.delete(
    '/api/admin/shop/products/:id',
    { config: { access: access.admin }, schema: { params: productParamsSchema, response: { 204: noContentReply } } },
    async (req, reply) => {
      if (!(await deleteProduct(db, req.params.id))) throw notFound(SHOP_MESSAGES.productNotFound);
      await announce();
      return reply.status(204).send();
    },
  );
};
