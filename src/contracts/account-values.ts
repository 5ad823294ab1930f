/**
 * The words of a member's own-data and account pages, without zod, so the web pages import them
 * without the validator. The schemas are in account.ts, which re-exports this.
 */

export const ACCOUNT_MESSAGES = {
  wrongPassword: 'That password is not right. Your account is unchanged.',
  confirmationRequired: 'Confirm with your password, or with the link we can email you.',
  deleteLinkSent: 'We emailed you a link to confirm deleting your account. It works once, for 30 minutes.',
  deleteLinkInvalid: 'This link has expired or was already used. Ask for a new one from your account page.',
  accountDeleted: 'Your account is deleted. Thank you for listening.',
  emailChangeSent: 'We sent a confirmation link to the new address. Your email changes when you open it.',
  emailChangeSentBoth: 'We sent a confirmation link to the new address and one to your current address. Your email changes when both are opened.',
  emailChangeHalfConfirmed: 'Confirmed. Now open the link we sent to the other address: your email changes when both are opened.',
  emailChanged: 'Your email address is changed.',
  emailChangeInvalid: 'This link has expired or was already used. Ask for a new one from your account page.',
  sameEmail: 'That is already your email address.',
  noPassword: 'Your account has no password: leave the password empty.',
  /** Shown where the member confirms: paid time is not kept or refunded by DHR. */
  deleteEndsAccess:
    'Deleting your account ends your access at once, including any paid time left. Patreon and Buy Me a Coffee payments are managed on those sites.',
} as const;
