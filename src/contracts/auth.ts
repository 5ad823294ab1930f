import { z } from 'zod';
import { memberSummarySchema } from './member-schemas';
import { textField } from './text-field';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from './email';

/** Minimum password 6. The upper bound keeps hashing cheap for hostile input. */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 200;
export const USERNAME_MAX = 50;

/** Auth page and set-password messages, shown to members word for word. */
export const AUTH_MESSAGES = {
  usernameRequired: 'Username is required',
  passwordsDoNotMatch: 'Passwords do not match',
  passwordTooShort: 'Password must be at least 6 characters long',
  registrationSuccess: 'Registration successful! Please log in with your new account.',
  registrationFailed: 'Registration failed',
  loginFailed: 'Login failed',
  signOutFailed: 'Sign out failed',
  invalidEmail: 'Please enter a valid email address',
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists. Please sign in instead.',
  emailTakenNoPassword: 'An account with this email already exists but has no password yet. Use Set Password to choose one.',
  emailVerificationFailed: 'Email verification failed',
  alreadyHasPassword: 'This account already has a password. Please use the login page.',
  noAccount: 'No account found with this email. Please register first or check your email address.',
  passwordSetupFailed: 'Password setup failed',
  emailVerified: 'Email verified! Please set your password below.',
  passwordSet: 'Password set successfully! You can now login with your email and password.',
  codeInvalid: 'That code is not valid. Check the latest email we sent you.',
  codeExpired: 'That code has expired or was used too many times. Please request a new one.',
  linkSent: 'If an account exists for that email, a sign-in link is on its way. Check your email.',
  resetLinkSent: 'If an account exists for that email, a password reset link is on its way. Check your email.',
  resetLinkInvalid: 'This password reset link has expired or was already used. Please request a new one.',
  passwordReset: 'Your password has been reset. You can now sign in with your new password.',
  quickAssignRequired: 'Please fill in email and tier',
  tierAssigned: 'User tier assigned successfully',
  setupDone: 'Admin account created. You are signed in.',
  setupNotNeeded: 'An admin account already exists. Please sign in instead.',
  setupTokenRequired: 'The setup token is required',
  setupTokenInvalid: 'That setup token is not valid. Use ADMIN_SETUP_TOKEN, or the token the server printed in its log at start-up.',
  verifyLinkInvalid: 'This confirmation link has expired or was already used. Request a sign-in link instead: signing in by email also confirms it.',
  emailConfirmed: 'Thank you: your email is confirmed.',
  verifyNeedsPassword: 'Enter the password you chose for this account, or sign in first, to confirm the email.',
  verifyWrongPassword: 'That is not the password of this account.',
  lastAdmin: 'The radio needs at least one admin: make another member admin first.',
  sessionsRevoked: 'The member is signed out everywhere.',
  currentPasswordWrong: 'Your current password is not right.',
  noPasswordYet: 'Your account has no password yet. Use Set Password to choose one.',
  samePassword: 'Choose a new password that differs from the current one.',
  passwordChanged: 'Your password is changed. Every other device is signed out.',
  signedOutEverywhere: 'You are signed out on every other device.',
  codeSignedIn: 'Signed in',
} as const;

/**
 * An email field: the one email rule of email.ts (normalised, EMAIL_MAX_LENGTH, EMAIL_PATTERN). Length
 * first (the text rule aborts there): an over-long value never reaches the pattern.
 */
export const emailSchema = textField(EMAIL_MAX_LENGTH, 'Email is too long')
  .trim()
  .toLowerCase()
  .min(1, 'Email is required')
  .email({ pattern: EMAIL_PATTERN, error: AUTH_MESSAGES.invalidEmail });

/** A new password: the spec's minimum, a sane maximum. */
export const newPasswordSchema = textField(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters long`).min(
  PASSWORD_MIN,
  AUTH_MESSAGES.passwordTooShort,
);

/** A password being checked: any non-empty string up to the maximum. */
export const passwordSchema = textField(PASSWORD_MAX, 'Password is too long').min(1, 'Password is required');

export const usernameSchema = textField(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters long`).trim().min(1, AUTH_MESSAGES.usernameRequired);

export const registerBodySchema = z.strictObject({
  email: emailSchema,
  password: newPasswordSchema,
  username: usernameSchema,
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const loginBodySchema = z.strictObject({ email: emailSchema, password: passwordSchema });
export type LoginBody = z.infer<typeof loginBodySchema>;

export const emailBodySchema = z.strictObject({ email: emailSchema });
export type EmailBody = z.infer<typeof emailBodySchema>;

export const codeSchema = textField(20)
  .trim()
  .regex(/^\d{6}$/, 'The code has 6 digits');

export const verifyCodeBodySchema = z.strictObject({ email: emailSchema, code: codeSchema });
export type VerifyCodeBody = z.infer<typeof verifyCodeBodySchema>;

export const changePasswordBodySchema = z
  .strictObject({ currentPassword: passwordSchema, newPassword: newPasswordSchema })
  .refine((b) => b.currentPassword !== b.newPassword, { message: AUTH_MESSAGES.samePassword, path: ['newPassword'] });
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

export const setPasswordBodySchema = z.strictObject({ email: emailSchema, code: codeSchema, password: newPasswordSchema });
export type SetPasswordBody = z.infer<typeof setPasswordBodySchema>;

export const tokenSchema = textField(128, 'The link is not valid').min(16, 'The link is not valid');

/** A one-time link's secret, posted by the page the link opens (never sent in a URL query). */
export const tokenBodySchema = z.strictObject({ token: tokenSchema });
export type TokenBody = z.infer<typeof tokenBodySchema>;

/**
 * Email confirmation: the token proves the inbox, and the session or the account's password proves
 * the registrant. Someone who only owns the inbox cannot confirm an account an attacker registered
 * under their address (and so hand their pledge to it).
 */
export const verifyEmailBodySchema = z.strictObject({ token: tokenSchema, password: passwordSchema.optional() });
export type VerifyEmailBody = z.infer<typeof verifyEmailBodySchema>;

/** Which account a sign-in link opens, shown before the member presses the button. */
export const linkPreviewReplySchema = z.object({ email: z.string() });
export type LinkPreviewReply = z.infer<typeof linkPreviewReplySchema>;

export const resetPasswordBodySchema = z.strictObject({ token: tokenSchema, password: newPasswordSchema });
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

export const adminSetupBodySchema = z.strictObject({
  /** ADMIN_SETUP_TOKEN, or the one-time token printed in the server log at first start. */
  setupToken: textField(200, AUTH_MESSAGES.setupTokenInvalid).trim().min(1, AUTH_MESSAGES.setupTokenRequired),
  email: emailSchema,
  username: usernameSchema,
  password: newPasswordSchema,
});
export type AdminSetupBody = z.infer<typeof adminSetupBodySchema>;

/** Quick assign: email and tier required, tier in any case, expiry days 0 = no expiry. */
export const assignTierBodySchema = z.strictObject({
  email: textField(EMAIL_MAX_LENGTH, 'Email is too long'),
  tier: textField(20, 'Invalid tier'),
  expiryDays: z.union([z.number(), textField(10).regex(/^\s*\d*\s*$/, 'Expiry days must be a whole number')]).optional(),
  username: textField(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters long`).optional(),
});
export type AssignTierBody = z.infer<typeof assignTierBodySchema>;

/** The signed-in member as the client sees it ("Auth user"). */
export const authUserSchema = memberSummarySchema.extend({
  hasPassword: z.boolean(),
});
export type AuthUser = z.infer<typeof authUserSchema>;

export const messageSchema = z.object({ message: z.string() });
export type MessageReply = z.infer<typeof messageSchema>;

export const authReplySchema = z.object({ message: z.string(), user: authUserSchema });
export type AuthReply = z.infer<typeof authReplySchema>;

export const sessionUserReplySchema = z.object({ user: authUserSchema.nullable() });

export const userExistsReplySchema = z.object({ exists: z.boolean(), hasPassword: z.boolean() });
export type UserExistsReply = z.infer<typeof userExistsReplySchema>;

export const setupNeededReplySchema = z.object({ setupNeeded: z.boolean() });
export type SetupNeededReply = z.infer<typeof setupNeededReplySchema>;

export const sessionDebugReplySchema = z.object({
  authenticated: z.boolean(),
  user: z.object({ id: z.string(), email: z.string(), username: z.string(), isAdmin: z.boolean() }),
  session: z.object({
    createdAt: z.string(),
    expiresAt: z.string(),
    lastSeenAt: z.string(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
  }),
  activeSessions: z.number(),
  cookie: z.object({ name: z.string(), httpOnly: z.boolean(), sameSite: z.string(), secure: z.boolean() }),
  serverTime: z.string(),
});

/**
 * The pages mailed links open. The token rides in the URL fragment (`#token=...`), which browsers
 * never send to a server, so it is in no request log; the page posts it.
 */
export const LINK_PAGES = {
  signIn: '/simple-auth/link',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  deleteAccount: '/account/delete',
  changeEmail: '/account/email',
} as const;
export const TOKEN_FRAGMENT_KEY = 'token';

export const LINK_INVALID_MESSAGE = 'This sign-in link has expired or was already used. Please request a new one.';
