import { composeMail, type MailMessage } from '../../lib/mail';
import { CODE_TTL_MS, LOGIN_LINK_TTL_MS, RESET_LINK_TTL_MS, VERIFY_LINK_TTL_MS } from './auth-tokens';
import { HOUR_MS, MINUTE_MS } from '../../../contracts/time';

const minutes = (ms: number) => Math.round(ms / MINUTE_MS);

/** The sign-in mail: the link, and the code for another device when one was issued (the sign-in form's; not an invite's). */
export function signInLinkMail(to: string, url: string, code?: string): MailMessage {
  return composeMail({
    to,
    subject: 'Your Deep House Radio sign-in link',
    greeting: 'Hi,',
    paragraphs: [
      `Someone (hopefully you) asked to sign in to Deep House Radio with this email address. The link below opens a page where one press signs you in; it works once, for ${minutes(LOGIN_LINK_TTL_MS)} minutes.`,
      ...(code ? [`Signing in on another device? Enter the code below on the sign-in page instead. It works once, for ${minutes(CODE_TTL_MS)} minutes.`] : []),
    ],
    action: { label: 'Sign in to DHR', url },
    ...(code ? { code } : {}),
    footer: 'If you did not ask for this, ignore this email: nobody can sign in without the link.',
  });
}

export function passwordCodeMail(to: string, code: string): MailMessage {
  return composeMail({
    to,
    subject: 'Your Deep House Radio verification code',
    greeting: 'Hi,',
    paragraphs: [`Enter this code on the Set Password page to prove this email is yours. It works for ${minutes(CODE_TTL_MS)} minutes.`],
    code,
    footer: 'If you did not ask for this, ignore this email: your account stays as it is.',
  });
}

export function resetLinkMail(to: string, url: string): MailMessage {
  return composeMail({
    to,
    subject: 'Reset your Deep House Radio password',
    greeting: 'Hi,',
    paragraphs: [
      `We received a request to reset the password of your Deep House Radio account. The link below works once, for ${minutes(RESET_LINK_TTL_MS)} minutes.`,
    ],
    action: { label: 'Choose a new password', url },
    footer: 'If you did not ask for this, ignore this email: your password stays as it is.',
  });
}

export function adminUsesPasswordMail(to: string, signInUrl: string, resetUrl: string): MailMessage {
  return composeMail({
    to,
    subject: 'Signing in to Deep House Radio as an admin',
    greeting: 'Hi,',
    paragraphs: [
      'Someone asked for an email sign-in link for this address. Admin accounts do not get sign-in links: they sign in with their password.',
      `Forgot it? Reset it here: ${resetUrl}`,
    ],
    action: { label: 'Sign in with your password', url: signInUrl },
    footer: 'If you did not ask for this, ignore this email.',
  });
}

export function verifyEmailMail(to: string, url: string): MailMessage {
  return composeMail({
    to,
    subject: 'Confirm your Deep House Radio email',
    greeting: 'Hi,',
    paragraphs: [
      `Someone (hopefully you) created a Deep House Radio account with this email address. Open the link below and confirm with your account password (or while signed in); it works once, for ${Math.round(VERIFY_LINK_TTL_MS / HOUR_MS)} hours.`,
      'Until then, a Patreon or Buy Me a Coffee membership under this email is not applied to the account.',
    ],
    action: { label: 'Confirm my email', url },
    footer: 'If you did not create an account, ignore this email: without the confirmation the account gets nothing tied to your address.',
  });
}

/**
 * Claim a Buy Me a Coffee payment: the code proves the member reads the payer email. The address is
 * not proven yet, so the mail names nobody and carries nothing the member typed.
 */
export function payerClaimCodeMail(to: string, code: string): MailMessage {
  return composeMail({
    to,
    subject: 'Link your Buy Me a Coffee payment to Deep House Radio',
    greeting: 'Hi,',
    paragraphs: [
      `A Deep House Radio member asked to link payments made with this email address to their account. If that is you, enter this code on your account page. It works for ${minutes(CODE_TTL_MS)} minutes.`,
    ],
    code,
    footer: 'If you did not ask for this, ignore this email: nothing is linked without the code.',
  });
}
