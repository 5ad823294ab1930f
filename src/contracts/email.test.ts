import { describe, expect, it } from 'vitest';
import { createAdminUserSchema } from './admin';
import { emailSchema } from './auth';
import { contactSchema } from './community';
import { EMAIL_MAX_LENGTH, isEmailAddress, normaliseEmail } from './email';

const local = (n: number) => 'a'.repeat(n);
const SAMPLES = [
  'someone@example.test',
  '  Someone@Example.TEST ',
  'first.last+dhr@mail.example.ie',
  "o'neill@example.ie",
  `${local(EMAIL_MAX_LENGTH - '@example.ie'.length)}@example.ie`,
  `${local(EMAIL_MAX_LENGTH - '@example.ie'.length + 1)}@example.ie`,
  'not-an-email',
  'a@b',
  'a@b.c',
  'a..b@example.ie',
  '.a@example.ie',
  'a b@example.ie',
  'ü@example.ie',
  '',
];

describe('one email rule', () => {
  it('accepts in every schema exactly what isEmailAddress accepts, so an address an admin creates can sign in', () => {
    for (const email of SAMPLES) {
      const expected = isEmailAddress(email);
      expect(emailSchema.safeParse(email).success, `sign-in: ${email}`).toBe(expected);
      // The admin and contact schemas bound the length; the services then apply isEmailAddress.
      const admin = createAdminUserSchema.safeParse({ email, username: 'x' });
      expect(admin.success && isEmailAddress(admin.data.email), `admin: ${email}`).toBe(expected);
      const contact = contactSchema.safeParse({ name: 'A', email, message: 'Hi' });
      expect(contact.success && isEmailAddress(contact.data.email), `contact: ${email}`).toBe(expected);
    }
  });

  it('normalises one way: trimmed, lower case; EMAIL_MAX_LENGTH characters at most', () => {
    expect(normaliseEmail('  Someone@Example.TEST ')).toBe('someone@example.test');
    expect(emailSchema.parse('  Someone@Example.TEST ')).toBe(normaliseEmail('  Someone@Example.TEST '));
    expect(isEmailAddress(`${local(EMAIL_MAX_LENGTH - 11)}@example.ie`)).toBe(true);
    expect(isEmailAddress(`${local(EMAIL_MAX_LENGTH - 10)}@example.ie`)).toBe(false);
  });
});
