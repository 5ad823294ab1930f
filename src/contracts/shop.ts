import { z } from 'zod';
import { emailSchema, tokenSchema } from './auth';
import { hasDuplicateTags, PRICE_MAX_EUR, RATING_MAX, RATING_MIN, SHOP_CATEGORIES, SHOP_MESSAGES } from './shop-values';
import { isSameSiteLink } from './links';
import { textField } from './text-field';

/** Shop payloads (docs/decisions/0018-live-monitor-shop-submissions.md). */

/** Whole cents: 24.99, not 24.999. */
const money = z
  .number()
  .min(0, 'Price cannot be negative')
  .max(PRICE_MAX_EUR)
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'Prices have at most two decimals');

/** An image or store link: http(s), or a path on this site (/media/..., /images/...). */
const linkSchema = textField(2000)
  .trim()
  .refine((v) => {
    if (v.startsWith('/')) return isSameSiteLink(v);
    try {
      const u = new URL(v);
      return u.protocol === 'https:' || u.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'Links must start with https:// or /');

const shortList = (max: number) => z.array(textField(60).trim().min(1)).max(max);

const productFields = {
  name: textField(200).trim().min(1, 'Name is required'),
  price: money,
  originalPrice: money.nullable().optional(),
  category: z.enum(SHOP_CATEGORIES),
  images: z.array(linkSchema).max(10),
  description: textField(5000).trim(),
  sizes: shortList(20).nullable().optional(),
  colors: shortList(20).nullable().optional(),
  rating: z.number().min(RATING_MIN, 'Rating must be between 1 and 5').max(RATING_MAX, 'Rating must be between 1 and 5'),
  reviews: z.number().int().min(0).max(10_000_000),
  inStock: z.boolean(),
  featured: z.boolean(),
  tags: shortList(30).refine((tags) => !hasDuplicateTags(tags), SHOP_MESSAGES.duplicateTags),
  isActive: z.boolean(),
  redbubbleUrl: linkSchema.nullable().optional(),
};

export const productIdSchema = textField(64)
  .min(1)
  .regex(/^[A-Za-z0-9_-]+$/, 'A product id has letters, digits, _ and - only');

/** Body of POST /api/admin/shop/products: the product plus its id (the form makes `product_<timestamp>`). */
export const productCreateSchema = z.strictObject({ id: productIdSchema, ...productFields });
export type ProductCreate = z.input<typeof productCreateSchema>;

/** Body of PATCH /api/admin/shop/products/:id: any of the fields (toggles send one). */
export const productPatchSchema = z
  .strictObject(productFields)
  .partial()
  .refine((b) => Object.keys(b).length > 0, 'Nothing to change');
export type ProductPatch = z.input<typeof productPatchSchema>;

export const productParamsSchema = z.object({ id: productIdSchema });

export const shopProductSchema = z.object({
  id: z.string(),
  name: z.string(),
  price: z.number(),
  originalPrice: z.number().nullable(),
  category: z.string(),
  images: z.array(z.string()),
  description: z.string(),
  sizes: z.array(z.string()).nullable(),
  colors: z.array(z.string()).nullable(),
  rating: z.number(),
  reviews: z.number(),
  inStock: z.boolean(),
  featured: z.boolean(),
  tags: z.array(z.string()),
  isActive: z.boolean(),
  redbubbleUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type ShopProduct = z.infer<typeof shopProductSchema>;
export const shopProductListSchema = z.array(shopProductSchema);

/** Reply of POST /api/admin/shop/upload-image. */
export const imageUploadReplySchema = z.object({ imageUrl: z.string() });

// ---------------------------------------------------------------- newsletter

export const newsletterBodySchema = z.strictObject({ email: emailSchema });
export const newsletterTokenBodySchema = z.strictObject({ token: tokenSchema });
export const newsletterReplySchema = z.object({ message: z.string() });

/** The pages the newsletter mails link to (the secret rides in the `#token=` fragment). */
export const NEWSLETTER_PAGES = { confirm: '/newsletter/confirm', unsubscribe: '/newsletter/unsubscribe' } as const;
