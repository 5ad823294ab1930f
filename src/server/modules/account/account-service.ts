import { ACCOUNT_MESSAGES, type DeleteAccountBody, type EmailChangeBody, type OwnDataExport } from '../../../contracts/account';
import { AUTH_MESSAGES, LINK_PAGES } from '../../../contracts/auth';
import { DELETED_MEMBER_NAME } from '../../../contracts/community';
import { normaliseEmail } from '../../../contracts/email';
import type { Db } from '../../db/client';
import type { AccountDeletionCause, UserRow } from '../../db/schema';
import { badRequest, conflict } from '../../lib/errors';
import type { MailMessage } from '../../lib/mail';
import { credentialsChanged, findSession, sessionsOf } from '../../lib/sessions';
import { hashToken } from '../../lib/tokens';
import { tokenLink } from '../auth/account-links';
import { consumeEmailChangeLink, consumeLinkToken, issueEmailChangeLinks, issueLinkToken } from '../auth/auth-tokens';
import { verifyPassword } from '../auth/passwords';
import { anonymiseChatAuthor, messagesBy } from '../chat/chat-repository';
import { anonymiseAuthor, commentsByAuthor } from '../comments/comments-repository';
import { grantsOf } from '../members/grants-repository';
import { deleteMember, EmailTakenError, findMemberByEmail, findMemberById, updateMember } from '../members/members-repository';
import { refuseLastAdminLeaving } from '../members/members-service';
import { downloadsOf } from '../mixes/mixes-repository';
import { forumPostsByAuthor } from '../news/forum-repository';
import { linksOfMembers } from '../platforms/links-repository';
import { recordsFeedingMember } from '../platforms/platforms-repository';
import { findProfile, followsOf } from '../profiles/profiles-repository';
import { connectionsOf } from '../radio/stream-connections-repository';
import { sessionsOfMember } from '../analytics/listening-sessions-repository';
import { accountDeleteMail, emailChangedNoticeMail, emailChangeFromOldMail, emailChangeMail } from './account-mails';
import { recordAccountDeletion } from './account-repository';

/** A member's own data and account (docs/decisions/0028-members-own-data.md). */

const iso = (d: Date) => d.toISOString();
/** Every premium-stream connection kept (30 days of them) fits well under this. */
const OWN_CONNECTIONS_MAX = 10_000;
const isoOrNull = (d: Date | null) => d?.toISOString() ?? null;

/** Everything DHR keeps about the member, as one document: never a password or token hash. */
export async function exportOwnData(db: Db, member: UserRow, now: Date = new Date()): Promise<OwnDataExport> {
  const [grants, links, records, profile, comments, threads, follows, downloads, sessions, connections, chat, listening] = await Promise.all([
    grantsOf(db, [member.id]),
    linksOfMembers(db, [member.id]),
    recordsFeedingMember(db, member),
    findProfile(db, member.id),
    commentsByAuthor(db, member.id),
    forumPostsByAuthor(db, member.id),
    followsOf(db, member.id),
    downloadsOf(db, member.id),
    sessionsOf(db, member.id),
    connectionsOf(db, member.id, OWN_CONNECTIONS_MAX),
    messagesBy(db, member.id),
    sessionsOfMember(db, member.id),
  ]);
  return {
    exportedAt: iso(now),
    account: {
      id: member.id,
      email: member.email,
      username: member.username,
      firstName: member.firstName,
      lastName: member.lastName,
      hasPassword: member.passwordHash !== null,
      isAdmin: member.isAdmin,
      createdAt: iso(member.createdAt),
      updatedAt: iso(member.updatedAt),
      lastLoginAt: isoOrNull(member.lastLoginAt),
      emailVerifiedAt: isoOrNull(member.emailVerifiedAt),
    },
    subscription: {
      tier: member.subscriptionTier,
      status: member.subscriptionStatus,
      source: member.subscriptionSource,
      expiry: isoOrNull(member.subscriptionExpiry),
      pledgeAmountCents: member.pledgeAmountCents,
    },
    grants: (grants.get(member.id) ?? []).map((g) => ({ ...g, expiry: isoOrNull(g.expiry) })),
    platformLinks: links.map((l) => ({ platform: l.platform, kind: l.kind, key: l.key, via: l.via, createdAt: iso(l.createdAt) })),
    platformRecords: records.map((r) => ({
      platform: r.platform,
      email: r.email,
      fullName: r.fullName,
      platformStatus: r.platformStatus,
      amountCents: r.amountCents,
      lastChargeAt: isoOrNull(r.lastChargeAt),
      nextChargeAt: isoOrNull(r.nextChargeAt),
      periodEndAt: isoOrNull(r.periodEndAt),
      isCancelled: r.isCancelled,
      updatedAt: iso(r.updatedAt),
    })),
    profile: profile && {
      bio: profile.bio,
      location: profile.location,
      website: profile.website,
      favoriteGenres: profile.favoriteGenres,
      profileImageUrl: profile.profileImageUrl,
      profileBannerUrl: profile.profileBannerUrl,
      emailNotifications: profile.emailNotifications,
      chatNotifications: profile.chatNotifications,
      profileVisibility: profile.profileVisibility,
      updatedAt: iso(profile.updatedAt),
    },
    comments: comments.map((c) => ({
      id: c.id,
      discussionId: c.discussionId,
      articleTitle: c.articleTitle,
      content: c.content,
      status: c.status,
      createdAt: iso(c.createdAt),
    })),
    forumPosts: threads.map((t) => ({ id: t.id, category: t.category, title: t.title, body: t.body, status: t.status, createdAt: iso(t.createdAt) })),
    follows: {
      following: follows.following.map((f) => ({ ...f, since: iso(f.since) })),
      followers: follows.followers.map((f) => ({ ...f, since: iso(f.since) })),
    },
    mixDownloads: downloads.map((d) => ({ ...d, at: iso(d.at) })),
    chatMessages: chat.map((m) => ({ channel: m.channel, at: iso(m.createdAt), text: m.text, status: m.status })),
    sessions: sessions.map((s) => ({
      createdAt: iso(s.createdAt),
      lastSeenAt: iso(s.lastSeenAt),
      expiresAt: iso(s.expiresAt),
      ip: s.ip,
      userAgent: s.userAgent,
    })),
    streamConnections: connections.map((c) => ({
      mount: c.mount,
      network: c.network,
      userAgent: c.userAgent,
      since: iso(c.startedAt),
      endedAt: isoOrNull(c.endedAt),
    })),
    listeningSessions: listening.map((l) => ({
      channel: l.channelId,
      mount: l.mount,
      network: l.network,
      country: l.country,
      player: l.player,
      userAgent: l.userAgent,
      startedAt: iso(l.startedAt),
      endedAt: isoOrNull(l.endedAt),
      durationS: l.durationS,
    })),
  };
}

/** The emailed confirmation of deleting the account, for members who sign in without a password. */
export async function accountDeleteMailFor(db: Db, publicUrl: string, member: UserRow): Promise<MailMessage> {
  const token = await issueLinkToken(db, 'account_delete', member.email, member.id);
  return accountDeleteMail(member.email, tokenLink(publicUrl, LINK_PAGES.deleteAccount, token));
}

/** The salted hash the audit line keeps instead of the member id. */
export const deletedMemberHash = (id: string) => hashToken(`account-deletion:${id}`);

/**
 * Deletes the signed-in member's account once the password or an emailed link confirms it. The users
 * row goes and with it (cascading foreign keys) the profile, follows, sessions, grants and their
 * history, platform links, mix downloads and live-monitor rows; comments, forum threads and chat
 * messages (until they expire) stay under DELETED_MEMBER_NAME; platform records stay (the platform's data about a payer) but no link feeds
 * them to anyone. Answers the discussions whose comment lists changed.
 */
export async function deleteOwnAccount(db: Db, member: UserRow, body: DeleteAccountBody): Promise<string[]> {
  const cause = await confirmDeletion(db, member, body);
  return db.transaction(async (tx) => {
    if (member.isAdmin) await refuseLastAdminLeaving(tx, member.id);
    const discussions = await anonymiseAuthor(tx, member.id, DELETED_MEMBER_NAME);
    await anonymiseChatAuthor(tx, member.id, DELETED_MEMBER_NAME);
    await credentialsChanged(tx, member.id, 'deleted');
    await deleteMember(tx, member.id);
    await recordAccountDeletion(tx, deletedMemberHash(member.id), cause);
    return discussions;
  });
}

async function confirmDeletion(db: Db, member: UserRow, body: DeleteAccountBody): Promise<AccountDeletionCause> {
  if (body.password !== undefined) {
    if (!(await verifyPassword(member.passwordHash, body.password))) throw badRequest(ACCOUNT_MESSAGES.wrongPassword, 'wrong_password');
    return 'member_password';
  }
  if (body.token !== undefined) {
    // Only the member the link was mailed to, signed in, can use it, and only while the account
    // still has the address it was mailed to.
    const row = await consumeLinkToken(db, 'account_delete', body.token);
    if (!row || row.userId !== member.id || row.email !== member.email) throw badRequest(ACCOUNT_MESSAGES.deleteLinkInvalid, 'link_invalid');
    return 'member_link';
  }
  throw badRequest(ACCOUNT_MESSAGES.confirmationRequired, 'confirmation_required');
}

/**
 * Step 1 of an email change: the password (when the account has one) proves the member, then a link
 * goes to the new address. A member without a password proves the current inbox too: a second link
 * goes there, and the move needs both (a stolen session alone cannot take the account away). Nothing
 * changes until the links are confirmed. Answers the mails to send.
 */
export async function requestEmailChange(db: Db, publicUrl: string, member: UserRow, body: EmailChangeBody): Promise<MailMessage[]> {
  const passwordless = member.passwordHash === null;
  if (passwordless) {
    if (body.password !== undefined) throw badRequest(ACCOUNT_MESSAGES.noPassword, 'no_password');
  } else if (!(await verifyPassword(member.passwordHash, body.password ?? ''))) {
    throw badRequest(ACCOUNT_MESSAGES.wrongPassword, 'wrong_password');
  }
  const newEmail = normaliseEmail(body.newEmail);
  if (newEmail === member.email) throw badRequest(ACCOUNT_MESSAGES.sameEmail, 'same_email');
  if (await findMemberByEmail(db, newEmail)) throw conflict(AUTH_MESSAGES.emailTaken, 'email_taken');
  const links = await issueEmailChangeLinks(db, member.id, { current: member.email, next: newEmail }, passwordless);
  const mails = [emailChangeMail(newEmail, tokenLink(publicUrl, LINK_PAGES.changeEmail, links.toNext))];
  if (links.toCurrent) mails.push(emailChangeFromOldMail(member.email, tokenLink(publicUrl, LINK_PAGES.changeEmail, links.toCurrent)));
  return mails;
}

/**
 * Step 2: a link of the change. When every link of it is confirmed (the new inbox's, and for a member
 * without a password the current inbox's too, while the account still has that address), the email
 * changes, every token of the member ends and every other session; the old address gets a notice.
 */
export async function confirmEmailChange(db: Db, token: string, sessionIdHash: string | null): Promise<{ message: string; notice: MailMessage | null }> {
  const invalid = () => badRequest(ACCOUNT_MESSAGES.emailChangeInvalid, 'link_invalid');
  return db.transaction(async (tx) => {
    const used = await consumeEmailChangeLink(tx, token);
    const member = used?.row.userId ? await findMemberById(tx, used.row.userId) : null;
    if (!used || !member) throw invalid();
    const { row, partner } = used;
    const toNext = row.kind === 'email_change' ? row : partner;
    const toCurrent = row.kind === 'email_change_old' ? row : partner;
    if (!toNext || (row.kind === 'email_change_old' && !partner)) throw invalid();
    if (toCurrent && toCurrent.email !== member.email) throw invalid();
    // An address taken since the request is refused at every link (the transaction undoes the use).
    if (await findMemberByEmail(tx, toNext.email)) throw conflict(AUTH_MESSAGES.emailTaken, 'email_taken');
    if (toCurrent && !toCurrent.usedAt) {
      if (toCurrent.expiresAt.getTime() <= Date.now()) throw invalid();
      return { message: ACCOUNT_MESSAGES.emailChangeHalfConfirmed, notice: null };
    }
    if (!toNext.usedAt) {
      if (toNext.expiresAt.getTime() <= Date.now()) throw invalid();
      return { message: ACCOUNT_MESSAGES.emailChangeHalfConfirmed, notice: null };
    }
    try {
      await updateMember(tx, member.id, { email: toNext.email, emailVerifiedAt: new Date() });
    } catch (err) {
      if (err instanceof EmailTakenError) throw conflict(AUTH_MESSAGES.emailTaken, 'email_taken');
      throw err;
    }
    const signedInAsMember = sessionIdHash ? (await findSession(tx, sessionIdHash))?.userId === member.id : false;
    await credentialsChanged(tx, member.id, 'email_changed_by_member', {
      keepSession: signedInAsMember ? (sessionIdHash ?? undefined) : undefined,
      emails: [member.email, toNext.email],
    });
    return { message: ACCOUNT_MESSAGES.emailChanged, notice: emailChangedNoticeMail(member.email) };
  });
}
