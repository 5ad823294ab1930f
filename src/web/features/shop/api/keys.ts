/** Query keys of the shop feature. */
export const shopKeys = {
  products: ['/api/shop/products'] as const,
  admin: ['shop', 'admin', 'products'] as const,
};
