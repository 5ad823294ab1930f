import type { z } from 'zod';
import { DUPLICATE_EMAIL, INVALID_EMAIL, REQUIRED_EMAIL_USERNAME, type createAdminUserSchema, type updateAdminUserSchema } from '../../../contracts/admin';
import { AUTH_MESSAGES, emailSchema, type AssignTierBody } from '../../../contracts/auth';
import { tierLabel } from '../../../contracts/tier-table';
import { parseTier, TIERS } from '../../../contracts/tiers';
import { DAY_MS } from '../../../contracts/time';
import { xactLock } from '../../db/advisory-locks';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { parseExpiryDate } from '../../lib/dates';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { credentialsChanged } from '../../lib/sessions';
import { sameGrant, type Grant } from '../../../contracts/grants';
import { changeGrants } from './entitlement-service';
import { effectiveOf, EmailTakenError, ensureMember, findAdminIds, findMemberByEmail, findMemberById, insertMember, updateMember } from './members-repository';
import { isEmailAddress, normaliseEmail } from '../../../contracts/email';

/** The admin's member tools: create, edit and quick-assign, with the spec's checks and messages. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NAME_MAX = 100;
const MAX_EXPIRY_DAYS = 36_500;

/** Email and username as the spec's create/edit forms check them, with its messages. */
function checkIdentity(emailIn: string, usernameIn: string): { email: string; username: string } {
  const email = normaliseEmail(emailIn);
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

/** The profile fields both admin forms set, once checked (the subscription goes through a grant). */
function memberFields(input: AdminForm, identity: { email: string; username: string }) {
  return {
    ...identity,
    firstName: emptyToNull(input.firstName),
    lastName: emptyToNull(input.lastName),
    isAdmin: input.isAdmin,
  };
}

/** The subscription the admin's form sets: the grant of the source it names. */
function formGrant(input: AdminForm, expiry: Date | null, pledgeAmountCents: number): Grant {
  return { source: input.subscriptionSource, tier: input.subscriptionTier, status: input.subscriptionStatus, expiry, pledgeAmountCents };
}

/** Creates a member from the admin form: pledge in euros, expiry in days from now (0 = none). */
export async function createMemberAsAdmin(db: Db, input: z.output<typeof createAdminUserSchema>, actingAdminId: string | null = null): Promise<UserRow> {
  const identity = checkIdentity(input.email, input.username);
  if (await findMemberByEmail(db, identity.email)) throw conflict(DUPLICATE_EMAIL, 'duplicate_email');
  const expiry = input.expiryDays > 0 ? new Date(Date.now() + input.expiryDays * DAY_MS) : null;
  return db.transaction(async (tx) => {
    const row = await emailMustBeFree(() => insertMember(tx, memberFields(input, identity)));
    const grant = formGrant(input, expiry, Math.round(input.pledgeAmount * 100));
    if (grant.tier === 'free' && grant.status === 'inactive') return row;
    await changeGrants(tx, [{ userId: row.id, source: grant.source, next: grant, reason: 'created by an admin' }], { cause: 'admin', causeRef: actingAdminId });
    return (await findMemberById(tx, row.id)) ?? row;
  });
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
  const emailChanged = identity.email !== existing.email;
  const demoted = existing.isAdmin && !input.isAdmin;
  const promoted = !existing.isAdmin && input.isAdmin;
  return db.transaction(async (tx) => {
    if (demoted) await keepAnotherAdmin(tx, id, actingAdminId ?? '');
    const fields = memberFields(input, identity);
    // An email an admin sets counts as verified (ADR 0013).
    let row = await emailMustBeFree(() => updateMember(tx, id, emailChanged ? { ...fields, emailVerifiedAt: new Date() } : fields));
    if (!row) throw notFound('User not found', 'user_not_found');
    // The subscription fields set the grant of the source they name, when the admin changed them;
    // the member's subscription is then the best of their grants (a platform may still give more).
    const grant = formGrant(input, expiry, input.pledgeAmount);
    const accessChanged = !sameGrant(grant, effectiveOf(existing));
    if (accessChanged) {
      await changeGrants(tx, [{ userId: id, source: grant.source, next: grant, reason: 'edited by an admin' }], {
        cause: 'admin',
        causeRef: actingAdminId ?? null,
      });
      row = (await findMemberById(tx, id)) ?? row;
    }
    // Sessions opened under the old email or with the admin rights end with them; a promotion ends
    // them too, so admin rights never land in a session opened before; links mailed before end with
    // any of these and with a tier change (docs/security.md, "Sessions and links end together").
    const event = emailChanged ? 'email_changed_by_admin' : demoted ? 'admin_removed' : promoted ? 'admin_granted' : accessChanged ? 'access_changed' : null;
    if (event) await credentialsChanged(tx, id, event, { emails: [existing.email] });
    return row;
  });
}

/**
 * Inside the transaction that takes `userId`'s admin rights away: waits for any other demotion, then
 * refuses when the acting admin lost their rights meanwhile or no other admin would remain. Two
 * parallel demotions thus cannot leave the radio without an admin.
 */
async function keepAnotherAdmin(tx: Db, userId: string, actingAdminId: string): Promise<void> {
  await tx.execute(xactLock('adminDemotion'));
  const admins = await findAdminIds(tx);
  if (!admins.includes(actingAdminId)) throw forbidden('Admin privileges required', 'admin_required');
  if (!admins.some((a) => a !== userId)) throw conflict(AUTH_MESSAGES.lastAdmin, 'last_admin');
}

/** Inside the transaction that deletes `userId`'s own account: refuses when they are the last admin. */
export async function refuseLastAdminLeaving(tx: Db, userId: string): Promise<void> {
  await keepAnotherAdmin(tx, userId, userId);
}

/** Signs a member out everywhere (an admin action). */
export async function endMemberSessions(db: Db, id: string): Promise<void> {
  const member = UUID.test(id) ? await findMemberById(db, id) : null;
  if (!member) throw notFound('User not found', 'user_not_found');
  await db.transaction((tx) => credentialsChanged(tx, id, 'sessions_revoked'));
}

/** Quick assign: grants a tier by email (the admin grant), creating the member when the email is new. */
export async function assignTier(db: Db, body: AssignTierBody, actingAdminId: string | null = null): Promise<{ user: UserRow; days: number }> {
  if (!body.email.trim() || !body.tier.trim()) throw badRequest(AUTH_MESSAGES.quickAssignRequired, 'missing_fields');
  const parsedEmail = emailSchema.safeParse(body.email);
  if (!parsedEmail.success) throw badRequest(AUTH_MESSAGES.invalidEmail, 'invalid_email');
  const tier = parseTier(body.tier);
  if (!tier) {
    const names = TIERS.map(tierLabel).join(', ');
    throw badRequest(`Invalid tier '${body.tier.trim()}'. Choose one of ${names}.`, 'invalid_tier');
  }
  // Empty means 0, and 0 means no expiry.
  const rawDays = typeof body.expiryDays === 'string' ? body.expiryDays.trim() : body.expiryDays;
  const days = rawDays === undefined || rawDays === '' ? 0 : Number(rawDays);
  if (!Number.isInteger(days) || days < 0 || days > MAX_EXPIRY_DAYS) {
    throw badRequest(`Expiry days must be a whole number from 0 to ${MAX_EXPIRY_DAYS}`, 'invalid_expiry');
  }
  const expiry = days === 0 ? null : new Date(Date.now() + days * DAY_MS);
  const user = await db.transaction(async (tx) => {
    const member = await ensureMember(tx, { email: parsedEmail.data, username: body.username?.trim() || undefined });
    const grant: Grant = { source: 'admin', tier, status: 'active', expiry, pledgeAmountCents: 0 };
    await changeGrants(tx, [{ userId: member.id, source: 'admin', next: grant, reason: 'quick assign' }], { cause: 'admin', causeRef: actingAdminId });
    return (await findMemberById(tx, member.id)) ?? member;
  });
  return { user, days };
}
