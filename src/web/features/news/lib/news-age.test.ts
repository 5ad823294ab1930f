import { describe, expect, it } from 'vitest';
import { HOUR_MS, DAY_MS } from '../../../../contracts/time';
import { isExternalLink, newsAge } from './news-age';

describe('newsAge', () => {
  const now = Date.UTC(2026, 10, 23, 12);
  it('reads in hours or days', () => {
    expect(newsAge(new Date(now - 5 * 60_000).toISOString(), now)).toBe('Just now');
    expect(newsAge(new Date(now - 3 * HOUR_MS).toISOString(), now)).toBe('3h ago');
    expect(newsAge(new Date(now - 2 * DAY_MS - HOUR_MS).toISOString(), now)).toBe('2d ago');
    expect(newsAge(new Date(now + HOUR_MS).toISOString(), now)).toBe('Just now');
    expect(newsAge('not a date', now)).toBe('');
  });
  it('tells feed links from app paths', () => {
    expect(isExternalLink('https://scene.example/a')).toBe(true);
    expect(isExternalLink('/forum')).toBe(false);
  });
});
