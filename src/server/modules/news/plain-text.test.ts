import { describe, expect, it } from 'vitest';
import { growthRatio } from '../../../../tests/support/linear-time';
import { htmlToText, textOrHtml } from './plain-text';

/** Shapes that made the old regular expressions quadratic, built at a given size. */
const HOSTILE_SHAPES: Record<string, (n: number) => string> = {
  'many <': (n) => '<'.repeat(n),
  'nested comments': (n) => '<!--'.repeat(n / 4),
  'unclosed <script': (n) => '<script'.repeat(n / 7),
  'open tags with attributes': (n) => '<a b="'.repeat(n / 6),
  'bare ampersands': (n) => '&'.repeat(n),
  'entity-like runs': (n) => '&#x'.repeat(n / 3),
  'deep nesting': (n) => '<div>'.repeat(n / 5),
  'stray closing tags under deep nesting': (n) => '<div>'.repeat(n / 10) + '</b>'.repeat(n / 8),
};

describe('htmlToText', () => {
  it('drops scripts, styles and comments with their content, keeps words apart, decodes entities once', () => {
    expect(htmlToText('<p>one</p><p>two<br>three</p><script>alert(1)</script><style>p{}</style><!-- x -->four', 100)).toBe('one two three four');
    expect(htmlToText('Tom &amp;amp; Jerry &eacute;', 100)).toBe('Tom &amp; Jerry é');
    expect(htmlToText('<img src=x onerror=alert(1)>safe', 100)).toBe('safe');
  });

  it('never lets markup through: tags that come out of decoding are removed too', () => {
    for (const hostile of ['&lt;img src=x onerror=alert(1)&gt;', '&lt;script&gt;alert(1)&lt;/script&gt;', '<scr<script>ipt>alert(1)</script>']) {
      const text = htmlToText(hostile, 300);
      expect(text).not.toMatch(/<[a-z]/i);
      expect(text).not.toMatch(/onerror/i);
    }
  });

  it('cuts to the limit with an ellipsis', () => {
    expect(htmlToText(`<p>${'word '.repeat(1000)}</p>`, 2000)).toHaveLength(2000);
    expect(htmlToText('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it.each(Object.entries(HOSTILE_SHAPES))('takes linear time on %s', async (_name, shape) => {
    const small = shape(64 * 1024);
    const large = shape(256 * 1024);
    const g = await growthRatio(
      () => htmlToText(small, 2000) + textOrHtml(small, 300),
      () => htmlToText(large, 2000) + textOrHtml(large, 300),
      2,
    );
    // 4× the input: linear is ~4× the CPU time; quadratic would be 16×.
    expect(g.ratio, `${g.smallMs.toFixed(1)} ms → ${g.largeMs.toFixed(1)} ms of CPU`).toBeLessThan(10);
    // A million characters costs no more than the quarter million: the input is capped before it is read.
    const capped = await growthRatio(
      () => htmlToText(large, 2000),
      () => htmlToText(shape(1_000_000), 2000),
      2,
    );
    expect(capped.ratio, `${capped.smallMs.toFixed(1)} ms → ${capped.largeMs.toFixed(1)} ms of CPU`).toBeLessThan(6);
  });
});

describe('textOrHtml', () => {
  it('keeps escaped markup in a title as text ("History of the <blink> tag")', () => {
    expect(textOrHtml('History of the <blink> tag', 300)).toBe('History of the <blink> tag');
    expect(textOrHtml('a < b > c', 300)).toBe('a < b > c');
  });

  it('reads real HTML as markup: known elements, attributes (event handlers), entities', () => {
    expect(textOrHtml('New EP <i>Deep</i>', 300)).toBe('New EP Deep');
    expect(textOrHtml('History of the <blink onclick="alert(1)"> tag', 300)).toBe('History of the tag');
    expect(textOrHtml('<img src=x onerror=alert(1)>Title', 300)).toBe('Title');
    expect(textOrHtml('AT&amp;T', 300)).toBe('AT&T');
    expect(textOrHtml('Tom & Jerry', 300)).toBe('Tom & Jerry');
  });
});
