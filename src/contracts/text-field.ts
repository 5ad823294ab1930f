import { z } from 'zod';

/**
 * The one text rule of every request: every string a client sends, in a JSON body,
 * a query, a path or a multipart field, is a `textField` (or starts as one). Its length is checked
 * first and stops there, so no pattern ever runs on an over-long value; then C0 controls (tab and
 * line feed/carriage return aside), DEL and broken UTF-16 are refused with a 400.
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

/** The check itself: one instance, so a schema walk can tell a text field from a bare string. */
export const CLEAN_TEXT = z.refine<string>(isCleanText, { message: TEXT_NOT_ALLOWED, abort: true });

/** A bounded string of clean text; add `.trim()`, `.min()`, `.regex()`… after it (they run after the rule). */
export const textField = (max: number, tooLong?: string | { message?: string }) =>
  z
    .string()
    .max(max, { message: typeof tooLong === 'string' ? tooLong : tooLong?.message, abort: true })
    .check(CLEAN_TEXT);

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An id in a path, query or body (the database's uuid syntax). */
export const uuidField = () => textField(36).regex(UUID_PATTERN, 'Invalid UUID');

/** Whether a zod string schema carries the text rule. */
export function usesTextRule(schema: z.ZodType): boolean {
  const checks = (schema._zod.def as { checks?: unknown[] }).checks ?? [];
  return checks.includes(CLEAN_TEXT);
}
