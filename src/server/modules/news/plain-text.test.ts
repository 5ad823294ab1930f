import { describe, expect, it } from 'vitest';
import { htmlToText, textOrHtml } from './plain-text';

/** The best of three runs, in milliseconds (a shared machine makes single runs noisy). */
function timeOf(fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    fn();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

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

  it.each(Object.entries(HOSTILE_SHAPES))('takes linear time on %s', (_name, shape) => {
    const small = shape(64 * 1024);
    const large = shape(256 * 1024);
    const tSmall = timeOf(() => htmlToText(small, 2000) + textOrHtml(small, 300));
    const tLarge = timeOf(() => htmlToText(large, 2000) + textOrHtml(large, 300));
    // 4× the input: linear is ~4× the time; quadratic would be 16×. Generous for a busy machine.
    expect(tLarge < 20 || tLarge / Math.max(tSmall, 0.5) < 10, `${tSmall.toFixed(1)} ms → ${tLarge.toFixed(1)} ms`).toBe(true);
    // A million characters is read in bounded time (the input is capped before it is read).
    const t = performance.now();
    htmlToText(shape(1_000_000), 2000);
    expect(performance.now() - t).toBeLessThan(500);
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
