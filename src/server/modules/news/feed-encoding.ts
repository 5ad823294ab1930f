import iconv from 'iconv-lite';

/**
 * A fetched body's bytes → text, deciding the encoding as browsers do: the byte-order mark, then the
 * HTTP charset, then the XML declaration (or an HTML page's <meta charset>), then UTF-8
 * (docs/decisions/0024-news-from-the-real-web.md). iconv-lite decodes every WHATWG encoding, UTF-32
 * and the IBM/DOS/Mac code pages feeds still declare. An unknown label is skipped with a warning,
 * never a refusal.
 */

export interface DecodedBody {
  text: string;
  /** The encoding used, as iconv-lite names it. */
  encoding: string;
  warnings: string[];
}

/**
 * The WHATWG Encoding Standard reads every label of ISO-8859-1 and ASCII as windows-1252, as browsers do:
 * a feed labelled ISO-8859-1 that uses 0x80–0x9F (curly quotes 0x93/0x94, dashes 0x96/0x97) means
 * windows-1252's characters, never C1 controls (iconv-lite would read "iso8859-1" as Latin-1).
 * Then the Mac labels iconv-lite spells otherwise.
 */
const WINDOWS_1252_LABELS = [
  'ansi_x3.4-1968',
  'ascii',
  'cp1252',
  'cp819',
  'csisolatin1',
  'ibm819',
  'iso-8859-1',
  'iso-ir-100',
  'iso8859-1',
  'iso88591',
  'iso_8859-1',
  'iso_8859-1:1987',
  'iso8859_1',
  'l1',
  'latin1',
  'us-ascii',
  'x-cp1252',
];
const LABEL_ALIASES: Record<string, string> = {
  ...Object.fromEntries(WINDOWS_1252_LABELS.map((label) => [label, 'windows-1252'])),
  'x-mac-roman': 'macintosh',
  'x-mac-cyrillic': 'maccyrillic',
  'x-mac-ukrainian': 'maccyrillic',
};

/** Byte-order marks, longest first (UTF-32LE's starts like UTF-16LE's). */
const BOMS: [number[], string][] = [
  [[0x00, 0x00, 0xfe, 0xff], 'utf-32be'],
  [[0xff, 0xfe, 0x00, 0x00], 'utf-32le'],
  [[0xef, 0xbb, 0xbf], 'utf-8'],
  [[0xfe, 0xff], 'utf-16be'],
  [[0xff, 0xfe], 'utf-16le'],
];

/** XML 1.0 Appendix F: "<?" (or "<") without a mark still tells the UTF-16/32 family from its zero bytes. */
const XML_STARTS: [number[], string][] = [
  [[0x00, 0x00, 0x00, 0x3c], 'utf-32be'],
  [[0x3c, 0x00, 0x00, 0x00], 'utf-32le'],
  [[0x00, 0x3c, 0x00, 0x3f], 'utf-16be'],
  [[0x3c, 0x00, 0x3f, 0x00], 'utf-16le'],
];

/** Where encoding declarations are looked for (the WHATWG prescan reads 1,024 bytes). */
const PRESCAN_BYTES = 1024;

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

/** A label → the name iconv-lite decodes with, or null when it knows no such encoding. */
export function encodingFor(label: string): string | null {
  const l = label.trim().toLowerCase();
  const name = LABEL_ALIASES[l] ?? l;
  return name && iconv.encodingExists(name) ? name : null;
}

/** The charset parameter of a Content-Type header. */
export function httpCharset(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  for (const part of contentType.split(';').slice(1)) {
    const [k, v] = part.split('=');
    if (k?.trim().toLowerCase() === 'charset' && v) return v.trim().replace(/^["']|["']$/g, '');
  }
  return undefined;
}

/** The declared label in the first bytes: `<?xml … encoding="…"?>`, else an HTML `<meta charset>`. */
function declaredInDocument(head: string, html: boolean): string | undefined {
  const xml = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]{1,40})["']/.exec(head);
  if (xml) return xml[1];
  if (!html) return undefined;
  // The 1 KB prefix bounds these (no quadratic case): <meta charset=x> or http-equiv's content="…charset=x".
  return /<meta[^>]{0,200}?\bcharset\s*=\s*["']?\s*([A-Za-z0-9._:-]{1,40})/i.exec(head)?.[1];
}

/**
 * Decodes a body. `contentType` is the HTTP header; `html` lets a web page's <meta charset> count.
 * UTF-16 and UTF-32 without a mark are told by the XML declaration's zero bytes.
 */
export function decodeBody(bytes: Buffer, contentType: string | undefined, html = false): DecodedBody {
  const warnings: string[] = [];
  const decodeWith = (encoding: string): DecodedBody => ({ text: iconv.decode(bytes, encoding, { stripBOM: true }), encoding, warnings });
  const bom = BOMS.find(([mark]) => startsWith(bytes, mark));
  if (bom) return decodeWith(bom[1]);
  const tryLabel = (label: string | undefined, where: string): string | null => {
    if (!label) return null;
    const name = encodingFor(label);
    if (!name) warnings.push(`unknown charset "${label.slice(0, 40)}" in the ${where} (ignored)`);
    return name;
  };
  const fromHttp = tryLabel(httpCharset(contentType), 'HTTP header');
  const family = XML_STARTS.find(([start]) => startsWith(bytes, start))?.[1];
  if (fromHttp) {
    const unicode = /^utf-?(16|32)/.test(fromHttp);
    // A UTF-16/32 label without a mark: the zero bytes tell the byte order, else little-endian (WHATWG).
    const ordered = /(le|be)$/.test(fromHttp);
    return decodeWith(!unicode || ordered ? fromHttp : (family ?? `${fromHttp}le`));
  }
  if (family) return decodeWith(family);
  const head = bytes.subarray(0, PRESCAN_BYTES).toString('latin1');
  const fromDoc = tryLabel(declaredInDocument(head, html), html ? 'page' : 'XML declaration');
  // A UTF-16/32 declaration read through ASCII bytes is a mislabelled UTF-8 body (WHATWG does the same).
  if (fromDoc && !/^utf-?(16|32)/.test(fromDoc)) return decodeWith(fromDoc);
  return decodeWith('utf-8');
}
