import { z } from 'zod';
import { memberSummarySchema } from './tiers';

/** Spec §9: minimum password 6. The upper bound keeps hashing cheap for hostile input. */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 200;
export const USERNAME_MAX = 50;
export const EMAIL_MAX = 254;

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
  supporterUseLink:
    'This email belongs to a Patreon or Buy Me a Coffee supporter. Sign in with an emailed link (Email me a sign-in link) to prove it is yours, then set a password.',
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
} as const;

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, 'Email is required')
  // abort: an over-long value never reaches the email regex.
  .max(EMAIL_MAX, { message: 'Email is too long', abort: true })
  .email(AUTH_MESSAGES.invalidEmail);

/** A new password: the spec's minimum, a sane maximum. */
export const newPasswordSchema = z
  .string()
  .min(PASSWORD_MIN, AUTH_MESSAGES.passwordTooShort)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters long`);

/** A password being checked: any non-empty string up to the maximum. */
export const passwordSchema = z.string().min(1, 'Password is required').max(PASSWORD_MAX, 'Password is too long');

export const usernameSchema = z
  .string()
  .trim()
  .min(1, AUTH_MESSAGES.usernameRequired)
  .max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters long`);

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

export const codeSchema = z.string().trim().regex(/^\d{6}$/, 'The code has 6 digits');

export const verifyCodeBodySchema = z.strictObject({ email: emailSchema, code: codeSchema });
export type VerifyCodeBody = z.infer<typeof verifyCodeBodySchema>;

export const setPasswordBodySchema = z.strictObject({ email: emailSchema, code: codeSchema, password: newPasswordSchema });
export type SetPasswordBody = z.infer<typeof setPasswordBodySchema>;

export const tokenSchema = z.string().min(16, 'The link is not valid').max(128, 'The link is not valid');

export const resetPasswordBodySchema = z.strictObject({ token: tokenSchema, password: newPasswordSchema });
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

export const adminSetupBodySchema = z.strictObject({
  email: emailSchema,
  username: usernameSchema,
  password: newPasswordSchema,
});
export type AdminSetupBody = z.infer<typeof adminSetupBodySchema>;

/** Quick assign: email and tier required, tier in any case, expiry days 0 = no expiry. */
export const assignTierBodySchema = z.strictObject({
  email: z.string().max(EMAIL_MAX, 'Email is too long'),
  tier: z.string().max(20, 'Invalid tier'),
  expiryDays: z
    .union([z.number(), z.string().max(10).regex(/^\s*\d*\s*$/, 'Expiry days must be a whole number')])
    .optional(),
  username: z.string().max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters long`).optional(),
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
export type SessionUserReply = z.infer<typeof sessionUserReplySchema>;

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
export type SessionDebugReply = z.infer<typeof sessionDebugReplySchema>;

/** Where a sign-in link that failed sends the browser; /simple-auth shows the matching message. */
export const LINK_ERROR_PARAM = 'link';
export const LINK_INVALID_MESSAGE = 'This sign-in link has expired or was already used. Please request a new one.';
