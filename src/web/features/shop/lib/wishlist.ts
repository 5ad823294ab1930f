/** The wishlist is a set of product ids in local storage; malformed storage reads as empty. */
export function parseWishlist(stored: string | null): string[] {
  if (!stored) return [];
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').slice(0, 500) : [];
  } catch {
    return [];
  }
}

export function toggleWish(list: readonly string[], id: string): string[] {
  return list.includes(id) ? list.filter((x) => x !== id) : [...list, id];
}
