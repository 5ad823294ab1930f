import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeBody, httpCharset } from './feed-encoding';

/** Bytes made with iconv-lite in the encoding named, as a server would send them. */
function bytes(text: string, encoding: string, bom: number[] = []): Buffer {
  return Buffer.concat([Buffer.from(bom), iconv.encode(text, encoding, { addBOM: false })]);
}

const xml = (label: string | null, title: string) =>
  `<?xml version="1.0"${label ? ` encoding="${label}"` : ''}?><rss version="2.0"><channel><item><title>${title}</title></item></channel></rss>`;

describe('decodeBody', () => {
  it.each([
    ['windows-1252', '£“test”'],
    ['ISO-8859-2', 'Zażółć gęślą jaźń'],
    ['Shift_JIS', '日本のハウス'],
    ['EUC-KR', '한국어 뉴스'],
    ['KOI8-R', 'Новости хауса'],
    ['IBM437', 'Ç ü é â'],
    ['macintosh', 'Café ﬁ'],
  ])('reads %s from the XML declaration', (label, title) => {
    const decoded = decodeBody(bytes(xml(label, title), label), 'application/rss+xml');
    expect(decoded.text).toContain(`<title>${title}</title>`);
    expect(decoded.warnings).toEqual([]);
  });

  it('prefers the HTTP charset to the XML declaration, and the byte-order mark to both', () => {
    const polish = bytes(xml('utf-8', 'Łódź'), 'iso-8859-2');
    expect(decodeBody(polish, 'text/xml; charset="ISO-8859-2"')).toMatchObject({ encoding: 'iso-8859-2' });
    expect(decodeBody(polish, 'text/xml; charset="ISO-8859-2"').text).toContain('Łódź');
    const marked = bytes(xml('windows-1252', '“x”'), 'utf-8', [0xef, 0xbb, 0xbf]);
    const decoded = decodeBody(marked, 'text/xml; charset=windows-1252');
    expect(decoded.encoding).toBe('utf-8');
    expect(decoded.text.startsWith('<?xml')).toBe(true);
  });

  it.each([
    ['utf-16le', [0xff, 0xfe]],
    ['utf-16be', [0xfe, 0xff]],
    ['utf-16le', []],
    ['utf-16be', []],
    ['utf-32le', [0xff, 0xfe, 0, 0]],
    ['utf-32be', [0, 0, 0xfe, 0xff]],
    ['utf-32le', []],
    ['utf-32be', []],
  ])('reads %s (mark: %j) without a charset anywhere else', (encoding, bom) => {
    const decoded = decodeBody(bytes(xml(null, 'Ünïcödé 日本 😀'), encoding, bom), undefined);
    expect(decoded.encoding).toBe(encoding);
    expect(decoded.text).toMatch(/^<\?xml/);
    expect(decoded.text).toContain('Ünïcödé 日本 😀');
  });

  it('reads a UTF-16 label without a mark by the zero bytes, and ISO-8859-1 as windows-1252 (WHATWG)', () => {
    expect(decodeBody(bytes(xml('UTF-16', 'x'), 'utf-16be'), 'application/xml; charset=utf-16').encoding).toBe('utf-16be');
    expect(decodeBody(bytes(xml(null, '€'), 'windows-1252'), 'text/xml; charset=iso-8859-1').text).toContain('€');
  });

  it('falls back with a warning on an unknown charset, never refuses', () => {
    const decoded = decodeBody(bytes(xml('x-klingon', 'plain'), 'utf-8'), 'text/xml; charset=x-unknown');
    expect(decoded.encoding).toBe('utf-8');
    expect(decoded.text).toContain('plain');
    expect(decoded.warnings).toEqual([
      'unknown charset "x-unknown" in the HTTP header (ignored)',
      'unknown charset "x-klingon" in the XML declaration (ignored)',
    ]);
  });

  it('reads a web page’s <meta charset> only for web pages; UTF-8 when nothing is declared', () => {
    const page = bytes('<!doctype html><html><head><meta charset="windows-1251"><title>Привет</title></head></html>', 'windows-1251');
    expect(decodeBody(page, 'text/html', true).text).toContain('Привет');
    expect(decodeBody(page, 'text/html', false).encoding).toBe('utf-8');
    const equiv = bytes('<html><head><meta http-equiv="Content-Type" content="text/html; charset=EUC-KR"></head><body>뉴스</body></html>', 'euc-kr');
    expect(decodeBody(equiv, undefined, true).text).toContain('뉴스');
  });

  it('reads the charset parameter of a Content-Type header', () => {
    expect(httpCharset('text/xml; Charset="Shift_JIS"')).toBe('Shift_JIS');
    expect(httpCharset('text/xml')).toBeUndefined();
    expect(httpCharset(undefined)).toBeUndefined();
  });
});
