import { describe, expect, it } from 'vitest';
import { growthRatio } from '../../../tests/support/linear-time';
import { hasLink } from './link-detector';

describe('link detector (the chat and comment link hold)', () => {
  it.each([
    'https://example.com',
    'look at www.example.org',
    'bit.ly/3abcd',
    'join t.me/deephouse',
    'discord.gg/abcdef now',
    'example.co.uk',
    'shop.berlin/deal',
    'пример.рф',
    'mail me: dj@example.ie',
    'example[.]com',
    'example [ . ] com',
    'example(dot)com',
    'example (dot) com',
    'example dot com',
    'ｅｘａｍｐｌｅ．ｃｏｍ',
    'example。com',
    'exa\u200Bmple.c\u200Bom',
    'example\u202E.com',
    '192.168.1.10/admin',
    'BIT.LY/ABC',
    'go to example.com.',
  ])('holds %j', (text) => {
    expect(hasLink(text)).toBe(true);
  });

  it.each([
    'Deep house 24/7, what a set!',
    'e.g. this one',
    'Kerri Chandler - Rain',
    'St Germain - Rose Rouge',
    '3.5 stars from me',
    'v1.2 remix is better',
    'Mr. Fingers... Can you feel it',
    'ok. then',
    'صباح الخير من القاهرة',
    'שלום לכולם',
    'the end.',
    '',
  ])('lets %j through', (text) => {
    expect(hasLink(text)).toBe(false);
  });

  it('stays linear on 300 KB of hostile text', async () => {
    for (const unit of ['<', '.', 'a.', '[.]', ' dot ', '@', 'www', 'a-']) {
      const small = unit.repeat(Math.ceil(75_000 / unit.length));
      const large = unit.repeat(Math.ceil(300_000 / unit.length));
      const { ratio } = await growthRatio(
        () => hasLink(small),
        () => hasLink(large),
      );
      expect(ratio, unit).toBeLessThan(8);
    }
  });
});
