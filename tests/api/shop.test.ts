import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { shopProductListSchema, type ShopProduct } from '../../src/contracts/shop';
import { SHOP_MESSAGES } from '../../src/contracts/shop-values';
import { newsletterSubscribers, shopProducts } from '../../src/server/db/schema';
import { client, freshEmail } from '../support/auth-client';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { createTestApp, memberWithRole, type Role } from '../support/app';
import { lastMailTo, linkIn, tempDataDir, tokenIn } from '../support/outbox';

const product = (over: Record<string, unknown> = {}) => ({
  id: `product_${Date.now()}${Math.floor(Math.random() * 1000)}`,
  name: 'Test Tee',
  price: 19.99,
  originalPrice: 25,
  category: 'clothing',
  images: ['/images/shop/dhr-classic-tee.svg'],
  description: 'A tee for tests.',
  sizes: ['M', 'L'],
  colors: null,
  rating: 4.5,
  reviews: 3,
  inStock: true,
  featured: false,
  tags: ['tee', 'test'],
  isActive: true,
  redbubbleUrl: 'https://www.redbubble.com/i/t-shirt/test',
  ...over,
});

describe('shop products', async () => {
  const app = await createTestApp();
  const admin = await memberWithRole(app, 'admin');
  const db = app.database.db;
  const publicList = async (): Promise<ShopProduct[]> => {
    const res = await app.inject('/api/shop/products');
    expect(res.statusCode).toBe(200);
    return shopProductListSchema.parse(res.json());
  };
  const asAdmin = (method: 'POST' | 'PATCH' | 'DELETE' | 'GET', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: { cookie: admin.cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });

  it('serves the seeded active products to anyone, cacheable', async () => {
    const res = await app.inject('/api/shop/products');
    expect(res.headers['cache-control']).toContain('public');
    const list = await publicList();
    expect(list).toHaveLength(8);
    expect(list.every((p) => p.isActive)).toBe(true);
    expect(list[0]?.featured).toBe(true);
  });

  it('creates, edits, hides and deletes a product, and the public list follows each change at once', async () => {
    const p = product();
    const created = await asAdmin('POST', '/api/admin/shop/products', p);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ id: p.id, price: 19.99, originalPrice: 25, tags: ['tee', 'test'] });
    expect((await publicList()).some((x) => x.id === p.id)).toBe(true);

    const edited = await asAdmin('PATCH', `/api/admin/shop/products/${p.id}`, { price: 17.5, inStock: false });
    expect(edited.json()).toMatchObject({ price: 17.5, inStock: false, name: 'Test Tee' });
    expect((await publicList()).find((x) => x.id === p.id)).toMatchObject({ price: 17.5, inStock: false });

    await asAdmin('PATCH', `/api/admin/shop/products/${p.id}`, { isActive: false });
    expect((await publicList()).some((x) => x.id === p.id)).toBe(false);
    const all = await asAdmin('GET', '/api/admin/shop/products');
    expect((all.json() as ShopProduct[]).find((x) => x.id === p.id)?.isActive).toBe(false);

    expect((await asAdmin('DELETE', `/api/admin/shop/products/${p.id}`)).statusCode).toBe(204);
    expect(await db.select().from(shopProducts).where(eq(shopProducts.id, p.id))).toHaveLength(0);
    expect((await asAdmin('DELETE', `/api/admin/shop/products/${p.id}`)).statusCode).toBe(404);
    expect((await asAdmin('PATCH', `/api/admin/shop/products/${p.id}`, { featured: true })).statusCode).toBe(404);
  });

  it('refuses a duplicate id with 409', async () => {
    const p = product();
    expect((await asAdmin('POST', '/api/admin/shop/products', p)).statusCode).toBe(201);
    const again = await asAdmin('POST', '/api/admin/shop/products', p);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(SHOP_MESSAGES.productExists);
  });

  it('refuses a negative price, a rating of 7, duplicate tags and other bad products, changing nothing', async () => {
    const before = await db.select().from(shopProducts);
    const bad = [
      product({ price: -1 }),
      product({ originalPrice: -5 }),
      product({ price: 10.001 }),
      product({ rating: 7 }),
      product({ rating: 0 }),
      product({ reviews: -1 }),
      product({ tags: ['tee', 'Tee '] }),
      product({ category: 'weapons' }),
      product({ images: ['javascript:alert(1)'] }),
      product({ redbubbleUrl: 'javascript:alert(1)' }),
      product({ id: '../etc' }),
      product({ name: '' }),
    ];
    for (const body of bad) expect((await asAdmin('POST', '/api/admin/shop/products', body)).statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
    const dup = await asAdmin('POST', '/api/admin/shop/products', product({ tags: ['vinyl', 'VINYL'] }));
    expect(dup.json().message).toContain(SHOP_MESSAGES.duplicateTags);
    const seeded = before[0]?.id ?? '';
    for (const body of [{ price: -3 }, { rating: 7 }, { tags: ['a', 'a'] }, {}, { id: 'other' }]) {
      expect((await asAdmin('PATCH', `/api/admin/shop/products/${seeded}`, body)).statusCode).toBe(400);
    }
    expect(await db.select().from(shopProducts)).toEqual(before);
  });

  it('keeps the admin routes to admins (role matrix)', async () => {
    const p = product();
    const roles: Exclude<Role, 'anonymous' | 'admin'>[] = ['free', 'dhr1', 'dhr2', 'vip'];
    const cookies: (string | undefined)[] = [undefined, ...(await Promise.all(roles.map(async (r) => (await memberWithRole(app, r)).cookie)))];
    for (const cookie of cookies) {
      const expected = cookie ? 403 : 401;
      const headers = cookie ? { cookie } : {};
      expect((await app.inject({ url: '/api/admin/shop/products', headers })).statusCode).toBe(expected);
      expect((await app.inject({ method: 'POST', url: '/api/admin/shop/products', headers, payload: p })).statusCode).toBe(expected);
      expect((await app.inject({ method: 'PATCH', url: '/api/admin/shop/products/dhr-snapback', headers, payload: { price: 1 } })).statusCode).toBe(expected);
      expect((await app.inject({ method: 'DELETE', url: '/api/admin/shop/products/dhr-snapback', headers })).statusCode).toBe(expected);
      expect((await app.inject({ url: '/api/shop/products', headers })).statusCode).toBe(200);
    }
    expect(await db.select().from(shopProducts).where(eq(shopProducts.id, 'dhr-snapback'))).toMatchObject([{ price: 22 }]);
  });
});

describe('shop cache across instances', async () => {
  const first = await createTestApp();
  const admin = await memberWithRole(first, 'admin');

  it("drops the other instance's cached list when a product changes (NOTIFY)", async () => {
    // On PostgreSQL the second instance has its own pool and LISTEN connection; on PGlite it shares the database object.
    const pgUrl = first.config.DATABASE_URL;
    const second = await buildApp(loadConfig({ LOG_LEVEL: 'silent', ...(pgUrl ? { DATABASE_URL: pgUrl } : {}) }, { backgroundJobs: false, memoryDb: true }), {
      logger: false,
      ...(pgUrl ? {} : { database: first.database }),
    });
    try {
      await second.ready();
      expect((await second.inject('/api/shop/products')).json()).toHaveLength(8);
      const res = await first.inject({
        method: 'PATCH',
        url: '/api/admin/shop/products/dhr-snapback',
        headers: { cookie: admin.cookie },
        payload: { isActive: false },
      });
      expect(res.statusCode).toBe(200);
      const deadline = Date.now() + 3000;
      let length = 8;
      while (length === 8 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 25));
        length = ((await second.inject('/api/shop/products')).json() as unknown[]).length;
      }
      expect(length).toBe(7);
    } finally {
      await second.close();
    }
  });
});

describe('newsletter', async () => {
  const dataDir = tempDataDir();
  const app = await createTestApp({ DATA_DIR: dataDir });
  const db = app.database.db;

  it('subscribes by double opt-in and unsubscribes with one press', async () => {
    const c = client(app);
    const email = freshEmail('fan');
    const res = await c.post('/api/newsletter', { email });
    expect(res.statusCode).toBe(202);
    expect(res.json().message).toBe(SHOP_MESSAGES.newsletterCheckInbox);
    expect((await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)))[0]?.status).toBe('pending');

    const confirmUrl = linkIn(lastMailTo(dataDir, email), '/newsletter/confirm');
    // The secret is in the fragment, which no request (or its log) carries.
    expect(new URL(confirmUrl).search).toBe('');
    const token = tokenIn(confirmUrl);
    const confirmed = await c.post('/api/newsletter/confirm', { token });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().message).toBe(SHOP_MESSAGES.newsletterConfirmed);
    expect((await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)))[0]?.status).toBe('confirmed');
    // Single use.
    expect((await c.post('/api/newsletter/confirm', { token })).statusCode).toBe(400);

    const unsubscribeUrl = linkIn(lastMailTo(dataDir, email), '/newsletter/unsubscribe');
    const gone = await c.post('/api/newsletter/unsubscribe', { token: tokenIn(unsubscribeUrl) });
    expect(gone.statusCode).toBe(200);
    expect(gone.json().message).toBe(SHOP_MESSAGES.newsletterUnsubscribed);
    expect((await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)))[0]?.status).toBe('unsubscribed');
  });

  it('answers a confirmed address the same way without mailing it again, and refuses bad input', async () => {
    const c = client(app);
    const email = freshEmail('fan');
    await c.post('/api/newsletter', { email });
    await c.post('/api/newsletter/confirm', { token: tokenIn(linkIn(lastMailTo(dataDir, email), '/newsletter/confirm')) });
    const mailsBefore = lastMailTo(dataDir, email).file;
    const again = await c.post('/api/newsletter', { email });
    expect(again.statusCode).toBe(202);
    expect(lastMailTo(dataDir, email).file).toBe(mailsBefore);
    expect((await c.post('/api/newsletter', { email: 'not-an-email' })).statusCode).toBe(400);
    expect((await c.post('/api/newsletter/confirm', { token: 'x'.repeat(40) })).statusCode).toBe(400);
  });
});

describe('product image upload', async () => {
  const dataDir = tempDataDir();
  const app = await createTestApp({ DATA_DIR: dataDir });
  const admin = await memberWithRole(app, 'admin');
  const sharp = (await import('sharp')).default;
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#7c3aed' } })
    .png()
    .toBuffer();

  function multipart(field: string, filename: string, type: string, bytes: Buffer) {
    const boundary = '----dhr' + Math.random().toString(16).slice(2);
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    return { payload: Buffer.concat([head, bytes, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }
  const upload = (body: ReturnType<typeof multipart>, cookie = admin.cookie) =>
    app.inject({ method: 'POST', url: '/api/admin/shop/upload-image', payload: body.payload, headers: { ...body.headers, cookie } });
  const stored = async () => (await app.mediaStorage.usage('images/')).objects;

  it('re-encodes an image, stores it by content hash and serves it publicly', async () => {
    const res = await upload(multipart('image', 'tee.png', 'image/png', png));
    expect(res.statusCode, res.body).toBe(200);
    const { imageUrl } = res.json() as { imageUrl: string };
    expect(imageUrl).toMatch(/^\/media\/images\/[a-f0-9]{64}\.webp$/);
    const served = await app.inject(imageUrl);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    // The URL is accepted as a product image.
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/shop/products',
      headers: { cookie: admin.cookie },
      payload: {
        id: 'product_upload',
        name: 'Uploaded',
        price: 1,
        category: 'digital',
        images: [imageUrl],
        description: '',
        rating: 5,
        reviews: 0,
        inStock: true,
        featured: false,
        tags: [],
        isActive: true,
      },
    });
    expect(created.statusCode).toBe(201);
  });

  it('refuses an 8 MB file, a non-image, a renamed text file and a missing field, storing nothing', async () => {
    const before = await stored();
    const big = await upload(multipart('image', 'big.png', 'image/png', Buffer.concat([png, Buffer.alloc(8 * 1024 * 1024)])));
    expect(big.statusCode).toBe(413);
    const text = await upload(multipart('image', 'notes.png', 'image/png', Buffer.from('<svg onload="alert(1)"></svg>')));
    expect(text.statusCode).toBe(400);
    expect(text.json().message).toBe('Please upload a JPEG, PNG, WebP or GIF image');
    expect((await upload(multipart('file', 'tee.png', 'image/png', png))).statusCode).toBe(400);
    expect(await stored()).toBe(before);
  });

  it('is for admins only', async () => {
    const member = await memberWithRole(app, 'vip');
    expect((await upload(multipart('image', 'tee.png', 'image/png', png), member.cookie)).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: '/api/admin/shop/upload-image', ...multipart('image', 'tee.png', 'image/png', png) })).statusCode).toBe(
      401,
    );
  });
});
