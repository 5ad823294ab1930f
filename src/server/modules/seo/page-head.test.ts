import { describe, expect, it } from 'vitest';
import { escapeXml, rssDocument } from './feeds';
import { capText, renderHead } from './page-head';

describe('page heads and feeds: text that came from members and other sites', () => {
  it('caps a text to one line of at most `max` characters, never cutting a surrogate pair', () => {
    expect(capText('  a\n\tb  c ', 10)).toBe('a b c');
    expect(capText('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
    const emoji = capText('🎧'.repeat(20), 5);
    expect([...emoji]).toEqual(['🎧', '🎧', '🎧', '🎧', '…']);
    expect(capText('<'.repeat(300 * 1024), 120)).toHaveLength(120);
  });

  it('escapes every value of the head', () => {
    const head = renderHead({ title: '"><script>x</script>', description: "it's & <b>", path: '/a"b' }, 'https://dhr.example', '{}');
    expect(head).not.toContain('<script>x');
    expect(head).toContain('<title>&quot;&gt;&lt;script&gt;x&lt;/script&gt;</title>');
    expect(head).toContain('content="it&#39;s &amp; &lt;b&gt;"');
    expect(head).toContain('href="https://dhr.example/a&quot;b"');
  });

  it('keeps XML well formed: special characters escaped, forbidden ones dropped', () => {
    expect(escapeXml('a<b>&"\'\u0000\u0007\uFFFE c')).toBe('a&lt;b&gt;&amp;&quot;&apos; c');
    const doc = rssDocument({ title: 't', description: 'd', link: 'https://x/', self: 'https://x/f.rss', language: 'en', entries: [] });
    expect(doc.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  });
});
