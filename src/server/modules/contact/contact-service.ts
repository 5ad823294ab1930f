import {
  CONTACT_HONEYPOT_FIELD,
  CONTACT_MESSAGES,
  contactProblemMessage,
  contactProblems,
  type ContactMessage,
  type ContactMessageList,
  type contactSchema,
} from '../../../contracts/community';
import { hasPrioritySupport, PRIORITY_SUPPORT_TIER } from '../../../contracts/tier-policy';
import { tierLabel } from '../../../contracts/tier-table';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { ContactMessageRow, UserRow } from '../../db/schema';
import { AppError, conflict, notFound } from '../../lib/errors';
import type { MailMessage } from '../../lib/mail';
import { composeMail } from '../../lib/mail';
import { findMembersByIds } from '../members/members-repository';
import { findContactMessage, insertContactMessage, listContactMessages, markHandled, reopen } from './contact-repository';

export type ContactInput = z.output<typeof contactSchema>;

/**
 * A contact form message: required fields checked with the spec's words, stored for the admin inbox.
 * A filled honeypot means a bot: nothing is stored and null is returned (the bot is told it worked).
 * A message from a member whose tier gives priority support (the tier table's prioritySupport) or from an
 * admin is marked priority.
 */
export async function receiveContact(db: Db, body: ContactInput, sender: UserRow | null): Promise<ContactMessageRow | null> {
  const fields = contactProblems(body);
  const problem = contactProblemMessage(fields);
  // `fields` lets the form put each message by its field.
  if (problem) throw new AppError(400, 'contact_invalid', problem, {}, { fields });
  if (body[CONTACT_HONEYPOT_FIELD]) return null;
  const priority = sender ? hasPrioritySupport(sender) : false;
  return insertContactMessage(db, {
    name: body.name,
    email: body.email,
    subject: body.subject || null,
    message: body.message,
    userId: sender?.id ?? null,
    priority,
  });
}

/** The mail to the station's contact address; replies go straight to the sender. */
export function contactMail(to: string, row: ContactMessageRow, publicUrl: string): MailMessage {
  const subject = `${row.priority ? '[PRIORITY] ' : ''}Contact: ${row.subject ?? 'Message from the website'}`;
  const mail = composeMail({
    to,
    subject,
    greeting: `${row.name} <${row.email}> wrote${row.priority ? ` (${tierLabel(PRIORITY_SUPPORT_TIER)} member: priority support)` : ''}:`,
    paragraphs: row.message.split(/\n{2,}/),
    action: { label: 'Open the contact inbox', url: `${publicUrl}/admin/contact` },
    footer: 'Sent from the contact form of Deep House Radio. Reply to this email to answer the sender.',
  });
  return { ...mail, replyTo: row.email };
}

export function toContactMessage(row: ContactMessageRow, names: ReadonlyMap<string, string>): ContactMessage {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    subject: row.subject,
    message: row.message,
    priority: row.priority,
    fromMember: row.userId ? (names.get(row.userId) ?? null) : null,
    createdAt: row.createdAt.toISOString(),
    handledAt: row.handledAt?.toISOString() ?? null,
    handledBy: row.handledAt && row.handledBy ? (names.get(row.handledBy) ?? null) : null,
  };
}

/** Usernames of the members a set of messages names (senders and the admins who handled them). */
async function namesOf(db: Db, rows: readonly ContactMessageRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.flatMap((r) => [r.userId, r.handledBy].filter((id): id is string => id !== null)))];
  return new Map((await findMembersByIds(db, ids)).map((m) => [m.id, m.username]));
}

/** The admins' inbox: the messages (priority first, newest first), with who sent and who handled each, and how many in all. */
export async function contactInbox(db: Db, status: 'open' | 'handled' | 'all'): Promise<ContactMessageList> {
  const { rows, total } = await listContactMessages(db, status);
  const names = await namesOf(db, rows);
  return { messages: rows.map((r) => toContactMessage(r, names)), total };
}

/** Marks a message handled by `adminId`, or opens it again; a message already in that state is a 409 that says so. */
export async function setHandled(db: Db, id: string, adminId: string, handled: boolean): Promise<ContactMessage> {
  const row = handled ? await markHandled(db, id, adminId) : await reopen(db, id);
  if (!row) {
    if (!(await findContactMessage(db, id))) throw notFound(CONTACT_MESSAGES.notFound);
    throw conflict(handled ? CONTACT_MESSAGES.alreadyHandled : CONTACT_MESSAGES.notHandled, handled ? 'already_handled' : 'not_handled');
  }
  return toContactMessage(row, await namesOf(db, [row]));
}
