import { composeMail, type MailMessage } from '../../lib/mail';
import { ACCOUNT_DELETE_TTL_MS, EMAIL_CHANGE_TTL_MS } from '../auth/auth-tokens';
import { HOUR_MS, MINUTE_MS } from '../../../contracts/time';

export function accountDeleteMail(to: string, url: string): MailMessage {
  return composeMail({
    to,
    subject: 'Confirm deleting your Deep House Radio account',
    greeting: 'Hi,',
    paragraphs: [
      `Someone (hopefully you) asked to delete the Deep House Radio account of this address. The link below opens a page where one press deletes it; it works once, for ${Math.round(ACCOUNT_DELETE_TTL_MS / MINUTE_MS)} minutes, while you are signed in.`,
      'Deleting ends your access at once, including any paid time left.',
    ],
    action: { label: 'Delete my account', url },
    footer: 'If you did not ask for this, ignore this email: your account stays as it is.',
  });
}

export function emailChangeMail(to: string, url: string): MailMessage {
  return composeMail({
    to,
    subject: 'Confirm your new Deep House Radio email',
    greeting: 'Hi,',
    paragraphs: [
      `Someone (hopefully you) asked to move a Deep House Radio account to this address. Open the link below to confirm; it works once, for ${Math.round(EMAIL_CHANGE_TTL_MS / HOUR_MS)} hours. Until then the account keeps its old address.`,
    ],
    action: { label: 'Confirm my new email', url },
    footer: 'If you did not ask for this, ignore this email: nothing changes without the confirmation.',
  });
}

/** To the current address of a member without a password: the move needs this inbox too. */
export function emailChangeFromOldMail(to: string, url: string): MailMessage {
  return composeMail({
    to,
    subject: 'Confirm moving your Deep House Radio account',
    greeting: 'Hi,',
    paragraphs: [
      `Someone (hopefully you) asked to move the Deep House Radio account of this address to another one. Open the link below to confirm; the move also needs the link sent to the new address. It works once, for ${Math.round(EMAIL_CHANGE_TTL_MS / HOUR_MS)} hours.`,
    ],
    action: { label: 'Confirm the move', url },
    footer: 'If you did not ask for this, ignore this email: your account keeps this address.',
  });
}

export function emailChangedNoticeMail(to: string): MailMessage {
  return composeMail({
    to,
    subject: 'Your Deep House Radio email was changed',
    greeting: 'Hi,',
    paragraphs: [
      'The Deep House Radio account that used this address now uses another one: the change was confirmed from the new inbox. Mail about the account goes there from now on.',
      'If you did not make this change, reply to this email or use the contact form so that we can help.',
    ],
    footer: 'This notice is sent to the old address of every email change.',
  });
}
