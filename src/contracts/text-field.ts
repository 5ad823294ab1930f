import { z } from 'zod';

/**
 * The one text rule of every request: every string a client sends, in a JSON body,
 * a query, a path or a multipart field, is a `textField` (or starts as one). Its length is checked
 * first and stops there, so no pattern ever runs on an over-long value; then C0 controls (tab and
 * line feed/carriage return aside), DEL and broken UTF-16 are refused with a 400, and invisible
 * characters (zero-width spaces, bidi overrides and isolates) are dropped: they only ever hide what a
 * text says (a link split by a zero-width space, a name that reads backwards).
 * `tests/api/text-fields.test.ts` walks every registered route's schemas for strings without it.
 */

/** The words of the 400 (the field's name is put in front by plugins/errors.ts). */
export const TEXT_NOT_ALLOWED = 'contains characters that are not allowed';

/** C0 controls and DEL, except tab (9), line feed (10) and carriage return (13). */
function hasControlChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) return true;
  }
  return false;
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text people can type: no control characters (tabs and line breaks aside), no broken UTF-16. */
export function isCleanText(s: string): boolean {
  return !hasControlChar(s) && !LONE_SURROGATE.test(s);
}

/**
 * Invisible characters a text field drops: soft hyphen, Mongolian vowel separator, zero-width space,
 * left-to-right and right-to-left marks, bidi embeddings, overrides and isolates, word joiner and
 * invisible operators, byte-order mark. Zero-width joiner and non-joiner (U+200C, U+200D) stay:
 * emoji sequences and Persian and Indic spelling need them.
 */
export const INVISIBLE_CHARACTERS = /[\u00AD\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

export function withoutInvisible(s: string): string {
  return s.replace(INVISIBLE_CHARACTERS, '');
}

/** The check itself: one instance, so a schema walk can tell a text field from a bare string. */
export const CLEAN_TEXT = z.refine<string>(isCleanText, { message: TEXT_NOT_ALLOWED, abort: true });

/** A bounded string of clean text; add `.trim()`, `.min()`, `.regex()`… after it (they run after the rule). */
export const textField = (max: number, tooLong?: string | { message?: string }) =>
  z
    .string()
    .max(max, { message: typeof tooLong === 'string' ? tooLong : tooLong?.message, abort: true })
    .check(CLEAN_TEXT)
    .overwrite(withoutInvisible);

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An id in a path, query or body (the database's uuid syntax). */
export const uuidField = () => textField(36).regex(UUID_PATTERN, 'Invalid UUID');

/** Whether a zod string schema carries the text rule. */
export function usesTextRule(schema: z.ZodType): boolean {
  const checks = (schema._zod.def as { checks?: unknown[] }).checks ?? [];
  return checks.includes(CLEAN_TEXT);
}
