import {
  SUPPORTER_MESSAGES,
  UNMATCHED_LIST_MAX,
  type ClaimConfirmBody,
  type LinkSupporterBody,
  type MemberPlatformRecord,
  type PatreonCallbackBody,
  type SupporterActionReply,
  type SupporterLinks,
  type UnmatchedSupporters,
} from '../../../contracts/supporters';
import { AUTH_MESSAGES } from '../../../contracts/auth';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { PlatformSubscriptionRow, UserRow } from '../../db/schema';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import { checkCode, consumeSessionBoundState, issueCode, issueSessionBoundState } from '../auth/auth-tokens';
import { findMemberByEmail, findMemberById } from '../members/members-repository';
import { PlatformError } from './http';
import { identityBanFor, linkIdentity, linksOfMembers, unlinkIdentities } from './links-repository';
import { mapEntitlement } from './mapping';
import { exchangePatreonCode, fetchPatreonIdentity, patreonAuthorizeUrl, patreonOAuthConfigured } from './patreon-oauth';
import { findPlatformRecord, findSyncRuns, recordsFeedingMember, unmatchedSupporters, upsertPlatformRecords } from './platforms-repository';
import type { SyncRunRow } from '../../db/schema';
import { findMembersByIds } from '../members/members-repository';
import type { RunPeople } from './sync-log-views';
import { reconcileUsers } from './reconcile-service';

/**
 * Supporters who pay under another identity (docs/decisions/0019-supporter-links.md): Connect Patreon,
 * claim a Buy Me a Coffee payer email by code, and the admins' reconciliation.
 */

/** The member's answer after a link changed: they have the tier at once. */
async function memberAccess(db: Db, userId: string, message: string): Promise<SupporterActionReply> {
  const u = await findMemberById(db, userId);
  if (!u) throw notFound(SUPPORTER_MESSAGES.memberNotFound, 'user_not_found');
  return { message, subscriptionTier: u.subscriptionTier, subscriptionStatus: u.subscriptionStatus };
}

export async function supporterLinksOf(db: Db, config: Config, user: UserRow): Promise<SupporterLinks> {
  const links = await linksOfMembers(db, [user.id]);
  const patreon = links.find((l) => l.platform === 'patreon' && l.kind === 'user_id');
  return {
    patreon: { available: patreonOAuthConfigured(config), connectedAt: patreon ? patreon.createdAt.toISOString() : null },
    payerEmails: links.filter((l) => l.platform === 'buymeacoffee' && l.kind === 'email').map((l) => ({ email: l.key, linkedAt: l.createdAt.toISOString() })),
  };
}

// ---------------------------------------------------------------- Connect Patreon

function requirePatreonOAuth(config: Config): void {
  if (!patreonOAuthConfigured(config)) throw notFound(SUPPORTER_MESSAGES.patreonNotConfigured, 'patreon_not_configured');
}

/** Step 1: the authorize URL, with a state only this session can bring back. */
export async function startPatreonConnect(db: Db, config: Config, user: UserRow, sessionIdHash: string): Promise<string> {
  requirePatreonOAuth(config);
  const state = await issueSessionBoundState(db, user.email, user.id, sessionIdHash);
  return patreonAuthorizeUrl(config, state);
}

/**
 * Step 2, when Patreon sent the member back: the state must be this session's and live (else nothing
 * happens), then code → token → identity. The Patreon user id is linked to the account (moved from
 * any other account), the membership is stored, and the member gets its tier at once.
 */
export async function finishPatreonConnect(
  db: Db,
  config: Config,
  user: UserRow,
  sessionIdHash: string,
  body: PatreonCallbackBody,
): Promise<SupporterActionReply> {
  requirePatreonOAuth(config);
  const state = await consumeSessionBoundState(db, body.state, sessionIdHash);
  if (!state || state.userId !== user.id) throw badRequest(SUPPORTER_MESSAGES.patreonStateInvalid, 'invalid_state');
  let identity;
  try {
    identity = await fetchPatreonIdentity(config, await exchangePatreonCode(config, body.code));
  } catch (err) {
    if (err instanceof PlatformError) throw new AppError(502, 'patreon_failed', SUPPORTER_MESSAGES.patreonFailed);
    throw err;
  }
  const { userId: patreonUserId, membership } = identity;
  await db.transaction(async (tx) => {
    // One Patreon per account: connecting another replaces the old link.
    const replaced = await unlinkIdentities(tx, user.id, 'patreon', 'user_id');
    const previous = await linkIdentity(tx, { platform: 'patreon', kind: 'user_id', key: patreonUserId, userId: user.id, via: 'oauth' });
    if (membership) await upsertPlatformRecords(tx, [membership], 'oauth');
    await reconcileUsers(
      tx,
      {
        userIds: [user.id, ...(previous ? [previous.userId] : [])],
        emails: membership ? [membership.email] : [],
        // The link decides which Patreon records feed the account now; any other Patreon access ends.
        authoritative: replaced.length || previous ? ['patreon'] : [],
      },
      { cause: 'oauth', causeRef: patreonUserId },
    );
  });
  const ban = await identityBanFor(db, [{ kind: 'user_id', key: patreonUserId }, ...(membership ? [{ kind: 'email' as const, key: membership.email }] : [])]);
  return memberAccess(
    db,
    user.id,
    ban ? `${SUPPORTER_MESSAGES.patreonConnected} ${SUPPORTER_MESSAGES.linkedBanned(ban.reason)}` : SUPPORTER_MESSAGES.patreonConnected,
  );
}

export async function disconnectPatreon(db: Db, user: UserRow): Promise<SupporterActionReply> {
  await db.transaction(async (tx) => {
    const removed = await unlinkIdentities(tx, user.id, 'patreon', 'user_id');
    if (!removed.length) throw notFound(SUPPORTER_MESSAGES.patreonNotLinked, 'not_linked');
    await reconcileUsers(tx, { userIds: [user.id], authoritative: ['patreon'] }, { cause: 'oauth', causeRef: 'disconnected' });
  });
  return memberAccess(db, user.id, SUPPORTER_MESSAGES.patreonDisconnected);
}

// ---------------------------------------------------------------- claim a Buy Me a Coffee payment

/** Checks a payer email the member wants to claim; returns the code to mail. */
export async function requestPayerClaim(db: Db, user: UserRow, email: string): Promise<string> {
  if (email === user.email) throw badRequest(SUPPORTER_MESSAGES.claimOwnEmail, 'own_email');
  const other = await findMemberByEmail(db, email);
  if (other && other.id !== user.id) throw conflict(SUPPORTER_MESSAGES.claimOtherAccount, 'other_account');
  const links = await linksOfMembers(db, [user.id]);
  if (links.some((l) => l.platform === 'buymeacoffee' && l.kind === 'email' && l.key === email)) {
    throw conflict(SUPPORTER_MESSAGES.claimAlreadyLinked, 'already_linked');
  }
  return issueCode(db, email, user.id, 'payer_claim');
}

/** The mailed code (10 minutes, 5 tries) links the payer email to the member, who gets its tier at once. */
export async function confirmPayerClaim(db: Db, user: UserRow, body: ClaimConfirmBody): Promise<SupporterActionReply> {
  const result = await checkCode(db, body.email, body.code, true, 'payer_claim');
  if (!result.ok) {
    throw result.reason === 'invalid' ? badRequest(AUTH_MESSAGES.codeInvalid, 'code_invalid') : badRequest(AUTH_MESSAGES.codeExpired, 'code_expired');
  }
  // A code another member asked for (the latest one for this email) is not this member's proof.
  if (result.row.userId !== user.id) throw badRequest(AUTH_MESSAGES.codeInvalid, 'code_invalid');
  await db.transaction(async (tx) => {
    const previous = await linkIdentity(tx, { platform: 'buymeacoffee', kind: 'email', key: body.email, userId: user.id, via: 'claim' });
    await reconcileUsers(
      tx,
      {
        userIds: [user.id, ...(previous ? [previous.userId] : [])],
        emails: [body.email],
        authoritative: previous ? ['buymeacoffee'] : [],
      },
      { cause: 'claim', causeRef: body.email },
    );
  });
  // A payer email a ban recorded: this account is banned too (comment-rules' activeBan); the reply says so.
  const ban = await identityBanFor(db, [{ kind: 'email', key: body.email }]);
  return memberAccess(db, user.id, ban ? `${SUPPORTER_MESSAGES.claimLinked} ${SUPPORTER_MESSAGES.linkedBanned(ban.reason)}` : SUPPORTER_MESSAGES.claimLinked);
}

export async function removePayerClaim(db: Db, user: UserRow, email: string): Promise<SupporterActionReply> {
  await db.transaction(async (tx) => {
    const removed = await unlinkIdentities(tx, user.id, 'buymeacoffee', 'email', email);
    if (!removed.length) throw notFound(SUPPORTER_MESSAGES.claimNotLinked, 'not_linked');
    await reconcileUsers(tx, { userIds: [user.id], emails: [email], authoritative: ['buymeacoffee'] }, { cause: 'claim', causeRef: `removed ${email}` });
  });
  return memberAccess(db, user.id, SUPPORTER_MESSAGES.claimRemoved);
}

// ---------------------------------------------------------------- admin: reconciliation

/** When the support began, as the platform says; else when DHR stored the record. */
function supportSince(r: PlatformSubscriptionRow): Date {
  const raw = r.raw as Record<string, unknown>;
  const attrs = (typeof raw.attributes === 'object' && raw.attributes !== null ? raw.attributes : raw) as Record<string, unknown>;
  const value = r.platform === 'patreon' ? attrs.pledge_relationship_start : attrs.subscription_created_on;
  const parsed = typeof value === 'string' ? new Date(value.includes('T') ? value : `${value.replace(' ', 'T')}Z`) : null;
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed : r.updatedAt;
}

export async function listUnmatchedSupporters(db: Db, platformsConfigured: boolean, now: Date = new Date()): Promise<UnmatchedSupporters> {
  const rows = await unmatchedSupporters(db, now);
  return {
    platformsConfigured,
    total: rows.length,
    supporters: rows.slice(0, UNMATCHED_LIST_MAX).map((r) => ({
      platform: r.platform,
      email: r.email,
      name: r.fullName,
      amountCents: r.amountCents,
      tier: mapEntitlement(r, now).tier,
      since: supportSince(r).toISOString(),
    })),
  };
}

async function recordOrNotFound(db: Db, platform: PlatformSubscriptionRow['platform'], email: string): Promise<PlatformSubscriptionRow> {
  const record = await findPlatformRecord(db, platform, email);
  if (!record) throw notFound(SUPPORTER_MESSAGES.supporterNotFound, 'supporter_not_found');
  return record;
}

/** An admin links a supporter's record to a member: by the Patreon user id when known, else the payer email. */
export async function linkSupporterToMember(db: Db, body: LinkSupporterBody, adminId: string | null = null): Promise<{ message: string }> {
  const record = await recordOrNotFound(db, body.platform, body.email);
  const member = await findMemberById(db, body.userId);
  if (!member) throw notFound(SUPPORTER_MESSAGES.memberNotFound, 'user_not_found');
  await db.transaction(async (tx) => {
    const key =
      record.platform === 'patreon' && record.platformUserId
        ? { platform: record.platform, kind: 'user_id' as const, key: record.platformUserId }
        : { platform: record.platform, kind: 'email' as const, key: record.email };
    const previous = await linkIdentity(tx, { ...key, userId: member.id, via: 'admin' });
    await reconcileUsers(
      tx,
      {
        userIds: [member.id, ...(previous ? [previous.userId] : [])],
        emails: [record.email],
        authoritative: previous ? [record.platform] : [],
      },
      { cause: 'link', causeRef: adminId },
    );
  });
  return { message: SUPPORTER_MESSAGES.supporterLinked };
}

/** The supporter to invite: their record must still be listed. Returns the email to mail a sign-in link to. */
export async function supporterToInvite(
  db: Db,
  platform: PlatformSubscriptionRow['platform'],
  email: string,
): Promise<{ email: string; userId: string | null }> {
  const record = await recordOrNotFound(db, platform, email);
  const existing = await findMemberByEmail(db, record.email);
  return { email: record.email, userId: existing?.id ?? null };
}

/** What feeds a member's access, for their row in user management. */
export async function memberPlatformRecords(db: Db, userId: string, now: Date = new Date()): Promise<MemberPlatformRecord[]> {
  const member = await findMemberById(db, userId);
  if (!member) throw notFound(SUPPORTER_MESSAGES.memberNotFound, 'user_not_found');
  const [records, links] = await Promise.all([recordsFeedingMember(db, member), linksOfMembers(db, [member.id])]);
  return records.map((r) => {
    const e = mapEntitlement(r, now);
    const link = links.find((l) => l.platform === r.platform && (l.kind === 'user_id' ? l.key === r.platformUserId : l.key === r.email));
    return {
      platform: r.platform,
      email: r.email,
      name: r.fullName,
      platformStatus: r.platformStatus,
      amountCents: r.amountCents,
      tier: e.tier,
      status: e.status,
      expiry: e.expiry ? e.expiry.toISOString() : null,
      matchedBy: link ? link.via : 'email',
      lastEvent: r.lastEvent,
      updatedAt: r.updatedAt.toISOString(),
    };
  });
}

/** Who ran each run and who reverted it (the admin's username), read in two queries for the whole list. */
export async function peopleOfRuns(db: Db, runs: readonly SyncRunRow[]): Promise<Map<number, RunPeople>> {
  const reverts = new Map(
    (
      await findSyncRuns(
        db,
        runs.flatMap((r) => (r.revertedByRun ? [r.revertedByRun] : [])),
      )
    ).map((r) => [r.id, r]),
  );
  const ids = [...new Set([...runs, ...reverts.values()].flatMap((r) => (r.startedBy ? [r.startedBy] : [])))];
  const names = new Map((await findMembersByIds(db, ids)).map((m) => [m.id, m.username]));
  const nameOf = (id: string | null | undefined) => (id ? (names.get(id) ?? null) : null);
  return new Map(
    runs.map((r) => [r.id, { startedBy: nameOf(r.startedBy), revertedBy: nameOf(r.revertedByRun ? reverts.get(r.revertedByRun)?.startedBy : null) }]),
  );
}
