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
import { CachedRead, ChangeNotices } from '../../lib/cached-read';
import { conflict, notFound } from '../../lib/errors';
import { access } from '../../plugins/access';
import { sendAnswer, type MemoryAnswer } from '../../plugins/memory-answers';
import { deleteProduct, insertProduct, listActiveProducts, listAllProducts, ProductExistsError, updateProduct } from './shop-repository';
import { toShopProduct } from './shop-views';
import { noContentReply } from '../../plugins/reply-schemas';

/** NOTIFY channel telling every instance the catalogue changed (their cached product lists are dropped). */
export const SHOP_PRODUCTS_CHANNEL = 'shop_products';
const CATALOGUE_CACHE_CONTROL = 'public, max-age=60';

interface Catalogue {
  /** The public list, as the route and plugins/memory-answers.ts send it. */
  answer: MemoryAnswer;
  /** The first image of the shop's first card (its default order): /shop's HTML preloads it. */
  leadImage: string | undefined;
}

/**
 * The shop's catalogue (docs/decisions/0018-live-monitor-shop-submissions.md): the public list is
 * served from memory until an admin changes a product, on any instance (docs/conventions.md, NOTIFY).
 */
export const shopRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const changes = new ChangeNotices(app, SHOP_PRODUCTS_CHANNEL);
  const announce = () => changes.announce();
  // The /shop page's HTML, its preload and the list route all ask for the list at once after a change: one read.
  const catalogue = new CachedRead<void, Catalogue>({
    droppedBy: [changes],
    load: async () => {
      const list: ShopProduct[] = (await listActiveProducts(db)).map(toShopProduct);
      return { answer: { body: JSON.stringify(list), cacheControl: CATALOGUE_CACHE_CONTROL }, leadImage: list.toSorted(compareFeatured)[0]?.images[0] };
    },
  });
  // Read once at start, so the first visitor's /shop already names its lead image.
  app.addHook('onReady', async () => catalogue.warm());
  app.pageHints.leadImage('/shop', () => {
    // Not read yet on this instance: read now, so the next visitor's HTML names it.
    catalogue.warm();
    return catalogue.peek()?.leadImage;
  });

  // The list in memory is answered before routing (plugins/memory-answers.ts).
  const fromMemory = (_params: unknown, query: string) => (query === '' ? catalogue.peek()?.answer : undefined);
  app.get(
    '/api/shop/products',
    { config: { access: access.public, sharedAnswer: true, fromMemory }, schema: { summary: "The shop's products", response: { 200: shopProductListSchema } } },
    // While the database is away the cached list still answers; with nothing cached it is a 503,
    // which the shop shows as an error (its fallback catalogue is for network errors only).
    async (req, reply) => sendAnswer<ShopProduct[]>(req, reply, (await catalogue.get()).answer),
  );

  app.get(
    '/api/admin/shop/products',
    { config: { access: access.admin }, schema: { summary: "The shop's products, hidden ones included", response: { 200: shopProductListSchema } } },
    async () => (await listAllProducts(db)).map(toShopProduct),
  );

  app.post(
    '/api/admin/shop/products',
    { config: { access: access.admin }, schema: { summary: 'Add a product', body: productCreateSchema, response: { 201: shopProductSchema } } },
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
    {
      config: { access: access.admin },
      schema: { summary: 'Edit a product', params: productParamsSchema, body: productPatchSchema, response: { 200: shopProductSchema } },
    },
    async (req) => {
      const row = await updateProduct(db, req.params.id, req.body);
      if (!row) throw notFound(SHOP_MESSAGES.productNotFound);
      await announce();
      return toShopProduct(row);
    },
  );

  app.delete(
    '/api/admin/shop/products/:id',
    { config: { access: access.admin }, schema: { summary: 'Delete a product', params: productParamsSchema, response: { 204: noContentReply } } },
    async (req, reply) => {
      if (!(await deleteProduct(db, req.params.id))) throw notFound(SHOP_MESSAGES.productNotFound);
      await announce();
      return reply.status(204).send();
    },
  );
};
