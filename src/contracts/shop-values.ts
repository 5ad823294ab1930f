/**
 * The shop's rules and constants, free of zod so pure web helpers (the
 * cart, the product normaliser) and the server share them.
 */
export const SHOP_CATEGORIES = ['clothing', 'accessories', 'vinyl', 'digital', 'bundles'] as const;
export type ShopCategory = (typeof SHOP_CATEGORIES)[number];

export const SHOP_SORTS = ['featured', 'newest', 'price-low', 'price-high', 'rating'] as const;
export type ShopSort = (typeof SHOP_SORTS)[number];

/** The shop's default order: featured products first, then the best rated. */
export function compareFeatured(a: { featured: boolean; rating: number }, b: { featured: boolean; rating: number }): number {
  return Number(b.featured) - Number(a.featured) || b.rating - a.rating;
}

export const FREE_SHIPPING_OVER_EUR = 50;
export const RETURNS_DAYS = 30;
export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const PRICE_MAX_EUR = 100_000;

export const SHOP_MESSAGES = {
  duplicateTags: 'Tags cannot be duplicated',
  deleteConfirm: 'Are you sure you want to delete this product?',
  uploadFailed: 'Failed to upload image',
  productExists: 'A product with this id already exists',
  productNotFound: 'Product not found',
  newsletterCheckInbox: 'Almost there! Check your inbox and confirm your subscription.',
  newsletterConfirmed: "You're subscribed. Watch your inbox for drops and deals.",
  newsletterUnsubscribed: "You're unsubscribed. You won't get the DHR newsletter any more.",
  newsletterLinkInvalid: 'This link has expired or was already used. Subscribe again from the shop.',
} as const;

/** A new product's id, made by the admin form (product_ plus a timestamp). */
export const newProductId = (now: number = Date.now()) => `product_${now}`;

/** Whether two tags are the same tag (case and surrounding space do not count). */
export const tagKey = (tag: string) => tag.trim().toLowerCase();

export function hasDuplicateTags(tags: readonly string[]): boolean {
  return new Set(tags.map(tagKey)).size !== tags.length;
}
