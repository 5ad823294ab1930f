/** The cart's arithmetic, pure: lines of product id and quantity, priced against the catalogue. */
export interface CartLine {
  id: string;
  quantity: number;
}

/** A cart never holds more of one product than this. */
export const MAX_QUANTITY = 99;

export function addToCart(cart: readonly CartLine[], id: string): CartLine[] {
  const found = cart.find((l) => l.id === id);
  if (!found) return [...cart, { id, quantity: 1 }];
  return cart.map((l) => (l.id === id ? { ...l, quantity: Math.min(MAX_QUANTITY, l.quantity + 1) } : l));
}

/** Sets a line's quantity; 0 or less removes it. */
export function setQuantity(cart: readonly CartLine[], id: string, quantity: number): CartLine[] {
  if (!Number.isFinite(quantity) || quantity <= 0) return cart.filter((l) => l.id !== id);
  return cart.map((l) => (l.id === id ? { ...l, quantity: Math.min(MAX_QUANTITY, Math.floor(quantity)) } : l));
}

export function cartCount(cart: readonly CartLine[]): number {
  return cart.reduce((n, l) => n + l.quantity, 0);
}

/** The total in euro, summed in cents so 3 x 19.99 is 59.97, not 59.970000000000006. */
export function cartTotal(cart: readonly CartLine[], priceOf: (id: string) => number | undefined): number {
  const cents = cart.reduce((sum, l) => sum + Math.round((priceOf(l.id) ?? 0) * 100) * l.quantity, 0);
  return cents / 100;
}

/** Lines whose product is no longer sold leave the cart. */
export function keepKnown(cart: readonly CartLine[], known: (id: string) => boolean): CartLine[] {
  return cart.filter((l) => known(l.id));
}

/** A cart read back from storage: anything malformed is dropped. */
export function parseCart(stored: string | null): CartLine[] {
  if (!stored) return [];
  try {
    const value: unknown = JSON.parse(stored);
    if (!Array.isArray(value)) return [];
    return value.flatMap((l: unknown) => {
      if (!l || typeof l !== 'object') return [];
      const { id, quantity } = l as Record<string, unknown>;
      if (typeof id !== 'string' || typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1) return [];
      return [{ id, quantity: Math.min(MAX_QUANTITY, quantity) }];
    });
  } catch {
    return [];
  }
}
