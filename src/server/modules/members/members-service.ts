import type { z } from 'zod';
import {
  DUPLICATE_EMAIL,
  isEmailAddress,
  INVALID_EMAIL,
  REQUIRED_EMAIL_USERNAME,
  type createAdminUserSchema,
  type updateAdminUserSchema,
} from '../../../contracts/admin';
import { AUTH_MESSAGES, emailSchema, type AssignTierBody } from '../../../contracts/auth';
import { TIER_LABEL, parseTier } from '../../../contracts/tiers';
import { DAY_MS } from '../../../contracts/time';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { parseExpiryDate } from '../../lib/dates';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { EmailTakenError, findMemberByEmail, findMemberById, grantTier, insertMember, updateMember } from './members-repository';

/** The admin's member tools: create, edit and quick-assign, with the spec's checks and messages. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NAME_MAX = 100;
const MAX_EXPIRY_DAYS = 36_500;

/** Email and username as the spec's create/edit forms check them, with its messages. */
function checkIdentity(emailIn: string, usernameIn: string): { email: string; username: string } {
  const email = emailIn.trim().toLowerCase();
  const username = usernameIn.trim();
  if (!email || !username) throw badRequest(REQUIRED_EMAIL_USERNAME, 'required_fields');
  if (!isEmailAddress(email)) throw badRequest(INVALID_EMAIL, 'invalid_email');
  if (username.length > NAME_MAX) throw badRequest(`Username must be at most ${NAME_MAX} characters`, 'invalid_username');
  return { email, username };
}

const emptyToNull = (v: string | null | undefined) => (v ? v : null);

/** A write that lost a race for the email answers like the check before it. */
async function emailMustBeFree<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof EmailTakenError) throw conflict(DUPLICATE_EMAIL, 'duplicate_email');
    throw err;
  }
}

type AdminForm = Pick<
  z.output<typeof updateAdminUserSchema>,
  'firstName' | 'lastName' | 'subscriptionTier' | 'subscriptionStatus' | 'subscriptionSource' | 'isAdmin'
>;

/** The member fields both admin forms set, once checked. */
function memberFields(input: AdminForm, identity: { email: string; username: string }, expiry: Date | null, pledgeAmountCents: number) {
  return {
    ...identity,
    firstName: emptyToNull(input.firstName),
    lastName: emptyToNull(input.lastName),
    subscriptionTier: input.subscriptionTier,
    subscriptionStatus: input.subscriptionStatus,
    subscriptionSource: input.subscriptionSource,
    subscriptionExpiry: expiry,
    pledgeAmountCents,
    isAdmin: input.isAdmin,
  };
}

/** Creates a member from the admin form: pledge in euros, expiry in days from now (0 = none). */
export async function createMemberAsAdmin(db: Db, input: z.output<typeof createAdminUserSchema>): Promise<UserRow> {
  const identity = checkIdentity(input.email, input.username);
  if (await findMemberByEmail(db, identity.email)) throw conflict(DUPLICATE_EMAIL, 'duplicate_email');
  const expiry = input.expiryDays > 0 ? new Date(Date.now() + input.expiryDays * DAY_MS) : null;
  return emailMustBeFree(() => insertMember(db, memberFields(input, identity, expiry, Math.round(input.pledgeAmount * 100))));
}

/** Saves the admin's edit of a whole member (pledge in cents); an admin cannot remove their own admin rights. */
export async function editMemberAsAdmin(
  db: Db,
  id: string,
  input: z.output<typeof updateAdminUserSchema>,
  actingAdminId: string | undefined,
): Promise<UserRow> {
  const existing = UUID.test(id) ? await findMemberById(db, id) : null;
  if (!existing) throw notFound('User not found', 'user_not_found');
  const identity = checkIdentity(input.email, input.username);
  let expiry: Date | null = null;
  if (input.subscriptionExpiry) {
    const parsed = parseExpiryDate(input.subscriptionExpiry);
    if (!parsed) throw badRequest('Expiry must be a date (YYYY-MM-DD) or empty for no expiry', 'invalid_expiry');
    expiry = parsed;
  }
  if (actingAdminId === id && !input.isAdmin) throw badRequest('You cannot remove your own admin rights', 'self_demotion');
  if (identity.email !== existing.email) {
    const other = await findMemberByEmail(db, identity.email);
    if (other && other.id !== id) throw conflict(DUPLICATE_EMAIL, 'duplicate_email');
  }
  const row = await emailMustBeFree(() => updateMember(db, id, memberFields(input, identity, expiry, input.pledgeAmount)));
  if (!row) throw notFound('User not found', 'user_not_found');
  return row;
}

/** Quick assign: grants a tier by email, creating the member when the email is new. */
export async function assignTier(db: Db, body: AssignTierBody): Promise<{ user: UserRow; days: number }> {
  if (!body.email.trim() || !body.tier.trim()) throw badRequest(AUTH_MESSAGES.quickAssignRequired, 'missing_fields');
  const parsedEmail = emailSchema.safeParse(body.email);
  if (!parsedEmail.success) throw badRequest(AUTH_MESSAGES.invalidEmail, 'invalid_email');
  const tier = parseTier(body.tier);
  if (!tier) {
    const names = Object.values(TIER_LABEL).join(', ');
    throw badRequest(`Invalid tier '${body.tier.trim()}'. Choose one of ${names}.`, 'invalid_tier');
  }
  // Empty means 0, and 0 means no expiry.
  const rawDays = typeof body.expiryDays === 'string' ? body.expiryDays.trim() : body.expiryDays;
  const days = rawDays === undefined || rawDays === '' ? 0 : Number(rawDays);
  if (!Number.isInteger(days) || days < 0 || days > MAX_EXPIRY_DAYS) {
    throw badRequest(`Expiry days must be a whole number from 0 to ${MAX_EXPIRY_DAYS}`, 'invalid_expiry');
  }
  const expiry = days === 0 ? null : new Date(Date.now() + days * DAY_MS);
  const user = await grantTier(db, { email: parsedEmail.data, username: body.username?.trim() || undefined, tier, expiry });
  return { user, days };
}
