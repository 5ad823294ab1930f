import { describe, expect, it } from 'vitest';
import { isSameSiteLink } from './links';
import { productCreateSchema } from './shop';

describe('isSameSiteLink', () => {
  it('takes paths of this site and refuses what a browser would open elsewhere', () => {
    for (const v of ['/media/images/a.png', '/shop', '/a/b?c=d#e']) expect(isSameSiteLink(v), v).toBe(true);
    for (const v of [
      '/\t/evil.example/x',
      '//evil.example/x',
      '/\\evil.example/x',
      '/\n/evil.example',
      '\\\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
    ])
      expect(isSameSiteLink(v), JSON.stringify(v)).toBe(false);
  });

  it('is the shop link rule: /\\t/evil.example/x is refused as a store link', () => {
    const base = {
      id: 'tee',
      name: 'Tee',
      price: 20,
      category: 'clothing',
      images: [],
      description: '',
      rating: 5,
      reviews: 0,
      inStock: true,
      featured: false,
      tags: [],
      isActive: true,
    };
    expect(productCreateSchema.safeParse({ ...base, redbubbleUrl: '/\t/evil.example/x' }).success).toBe(false);
    expect(productCreateSchema.safeParse({ ...base, redbubbleUrl: '/shop' }).success).toBe(true);
  });
});
