/** Local storage keys of the shop. */
export const CART_KEY = 'dhr-cart';
export const WISHLIST_KEY = 'dhr-wishlist';
