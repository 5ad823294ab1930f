import { describe, expect, it } from 'vitest';
import { addToCart, cartCount, cartTotal, keepKnown, MAX_QUANTITY, parseCart, setQuantity } from './cart';
import { normalizeProduct } from './normalize-product';
import { filterAndSort } from './catalogue';

const prices: Record<string, number> = { tee: 19.99, cap: 22, vinyl: 27.5 };
const priceOf = (id: string) => prices[id];

describe('cart arithmetic', () => {
  it('adds, counts and totals in cents', () => {
    let cart = addToCart([], 'tee');
    cart = addToCart(cart, 'tee');
    cart = addToCart(cart, 'tee');
    cart = addToCart(cart, 'cap');
    expect(cart).toEqual([
      { id: 'tee', quantity: 3 },
      { id: 'cap', quantity: 1 },
    ]);
    expect(cartCount(cart)).toBe(4);
    expect(cartTotal(cart, priceOf)).toBe(81.97);
  });

  it('changes quantities; zero or less removes the line', () => {
    const cart = [
      { id: 'tee', quantity: 2 },
      { id: 'vinyl', quantity: 1 },
    ];
    expect(setQuantity(cart, 'tee', 1)).toEqual([
      { id: 'tee', quantity: 1 },
      { id: 'vinyl', quantity: 1 },
    ]);
    expect(setQuantity(cart, 'tee', 0)).toEqual([{ id: 'vinyl', quantity: 1 }]);
    expect(setQuantity(cart, 'vinyl', -3)).toEqual([{ id: 'tee', quantity: 2 }]);
    expect(setQuantity(cart, 'tee', 1000)[0]?.quantity).toBe(MAX_QUANTITY);
    expect(cartTotal([], priceOf)).toBe(0);
  });

  it('drops lines of unknown products and malformed storage', () => {
    expect(
      keepKnown(
        [
          { id: 'tee', quantity: 1 },
          { id: 'gone', quantity: 2 },
        ],
        (id) => id in prices,
      ),
    ).toEqual([{ id: 'tee', quantity: 1 }]);
    expect(parseCart('[{"id":"tee","quantity":2},{"id":"x","quantity":-1},{"id":3,"quantity":1},null]')).toEqual([{ id: 'tee', quantity: 2 }]);
    expect(parseCart('not json')).toEqual([]);
    expect(parseCart('{"id":"tee"}')).toEqual([]);
  });
});

describe('product normaliser', () => {
  it('accepts the text and JSON-encoded forms of the fields', () => {
    const p = normalizeProduct({
      id: 'tee',
      name: 'Tee',
      price: '24.99',
      originalPrice: '29.99',
      rating: '4.5',
      reviews: '12',
      images: '["/a.svg","/b.svg"]',
      sizes: 'S, M, L',
      colors: '["Black"]',
      tags: 'tee,logo',
      inStock: 'false',
      featured: true,
      category: 'clothing',
    });
    expect(p).toMatchObject({
      price: 24.99,
      originalPrice: 29.99,
      rating: 4.5,
      reviews: 12,
      images: ['/a.svg', '/b.svg'],
      sizes: ['S', 'M', 'L'],
      colors: ['Black'],
      tags: ['tee', 'logo'],
      inStock: false,
      featured: true,
    });
  });

  it('drops records without an id, a name or a price, and clamps the rating', () => {
    expect(normalizeProduct({ name: 'x', price: 1 })).toBeNull();
    expect(normalizeProduct({ id: 'x', name: 'x', price: 'free' })).toBeNull();
    expect(normalizeProduct(null)).toBeNull();
    expect(normalizeProduct({ id: 'x', name: 'x', price: 1, rating: 9 })?.rating).toBe(5);
  });
});

describe('catalogue filters', () => {
  const base = {
    originalPrice: null,
    images: [],
    description: '',
    sizes: null,
    colors: null,
    reviews: 0,
    inStock: true,
    tags: [],
    isActive: true,
    redbubbleUrl: null,
  };
  const products = [
    { ...base, id: 'a', name: 'Classic Tee', price: 20, category: 'clothing', rating: 4, featured: false, createdAt: '2026-01-01T00:00:00Z' },
    { ...base, id: 'b', name: 'Vinyl', price: 30, category: 'vinyl', rating: 5, featured: true, createdAt: '2026-01-03T00:00:00Z', tags: ['record'] },
    { ...base, id: 'c', name: 'Cap', price: 10, category: 'accessories', rating: 3, featured: false, createdAt: '2026-01-02T00:00:00Z' },
  ];
  it('searches name, description and tags; filters by category; sorts', () => {
    expect(filterAndSort(products, { search: 'RECORD', category: 'all', sort: 'featured' }).map((p) => p.id)).toEqual(['b']);
    expect(filterAndSort(products, { search: '', category: 'clothing', sort: 'featured' }).map((p) => p.id)).toEqual(['a']);
    expect(filterAndSort(products, { search: '', category: 'all', sort: 'price-low' }).map((p) => p.id)).toEqual(['c', 'a', 'b']);
    expect(filterAndSort(products, { search: '', category: 'all', sort: 'price-high' }).map((p) => p.id)).toEqual(['b', 'a', 'c']);
    expect(filterAndSort(products, { search: '', category: 'all', sort: 'rating' }).map((p) => p.id)).toEqual(['b', 'a', 'c']);
    expect(filterAndSort(products, { search: '', category: 'all', sort: 'newest' }).map((p) => p.id)).toEqual(['b', 'c', 'a']);
    expect(filterAndSort(products, { search: '', category: 'all', sort: 'featured' })[0]?.id).toBe('b');
  });
});
