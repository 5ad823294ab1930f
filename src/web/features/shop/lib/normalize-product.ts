import type { ShopProduct } from '../../../../contracts/shop';

/**
 * The shop accepts products whose price, rating, images, sizes, colors and tags arrive as text or as
 * JSON-encoded strings, and turns them into one shape. A record without a
 * usable id, name or price is dropped (null).
 */
export function normalizeProduct(raw: unknown): ShopProduct | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  const id = text(r.id);
  const name = text(r.name);
  const price = num(r.price);
  if (!id || !name || price === null || price < 0) return null;
  const original = num(r.originalPrice);
  const rating = num(r.rating);
  return {
    id,
    name,
    price,
    originalPrice: original !== null && original > 0 ? original : null,
    category: text(r.category) || 'all',
    images: list(r.images) ?? [],
    description: text(r.description),
    sizes: list(r.sizes),
    colors: list(r.colors),
    rating: rating === null ? 5 : Math.min(5, Math.max(1, rating)),
    reviews: Math.max(0, Math.floor(num(r.reviews) ?? 0)),
    inStock: bool(r.inStock, true),
    featured: bool(r.featured, false),
    tags: list(r.tags) ?? [],
    isActive: bool(r.isActive, true),
    redbubbleUrl: text(r.redbubbleUrl) || null,
    createdAt: text(r.createdAt),
  };
}

function text(v: unknown): string {
  return typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
}

function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string' || !v.trim()) return null;
  const n = Number(v.trim().replace(/^"|"$/g, ''));
  return Number.isFinite(n) ? n : null;
}

function bool(v: unknown, fallback: boolean): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 1 || v === '1') return true;
  if (v === 'false' || v === 0 || v === '0') return false;
  return fallback;
}

/** A list of strings from an array, a JSON-encoded array, or comma-separated text; null when absent. */
function list(v: unknown): string[] | null {
  if (v === null || v === undefined || v === '') return null;
  if (Array.isArray(v)) return v.map(text).filter(Boolean);
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (s.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(s);
      return Array.isArray(parsed) ? parsed.map(text).filter(Boolean) : null;
    } catch {
      // not JSON after all: read it as text below
    }
  }
  return s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}
