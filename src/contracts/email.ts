/**
 * The one email rule, for every form and schema that takes an address (sign-in and registration,
 * the admin's create, edit and quick assign, the bulk import, contact, newsletter, supporter links,
 * DJ submissions) and for the addresses the platforms send: trimmed and lower-cased, at most
 * EMAIL_MAX_LENGTH characters, matching EMAIL_PATTERN. What one form accepts every other accepts,
 * so an account an admin creates or imports can always sign in. Free of zod so the web bundle
 * imports it as it is; auth.ts builds `emailSchema` on it.
 */

/** The longest address: a forward path holds at most 256 characters, 254 without its angle brackets (RFC 5321). */
export const EMAIL_MAX_LENGTH = 254;

/**
 * How long an email field of a request may be before the rule is applied: longer than any address,
 * so that an over-long one is refused by the form's own check, with its message, not by a length error.
 */
export const EMAIL_INPUT_MAX = 1024;

/**
 * A plausible address: a local part of letters, digits and _ ' + - with single dots between, '@',
 * then dot-separated domain labels ending in a top-level domain of two letters or more. The same
 * pattern zod's email check uses. Backtracks on long input: test through isEmailAddress, which
 * checks the length first.
 */
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** The address as it is stored and compared: trimmed and lower-cased. */
export function normaliseEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** Whether `value`, once normalised, is an address the radio accepts: the length first, then the pattern. */
export function isEmailAddress(value: string): boolean {
  const email = normaliseEmail(value);
  return email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email);
}
