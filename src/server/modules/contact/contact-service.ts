import { CONTACT_HONEYPOT_FIELD, contactProblemMessage, contactProblems, type ContactMessage, type contactSchema } from '../../../contracts/community';
import { hasPrioritySupport, PRIORITY_SUPPORT_TIER } from '../../../contracts/tier-policy';
import { tierLabel } from '../../../contracts/tier-table';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { ContactMessageRow, UserRow } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { MailMessage } from '../../lib/mail';
import { composeMail } from '../../lib/mail';
import { insertContactMessage } from './contact-repository';

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

export function toContactMessage(row: ContactMessageRow, memberName: string | null): ContactMessage {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    subject: row.subject,
    message: row.message,
    priority: row.priority,
    fromMember: memberName,
    createdAt: row.createdAt.toISOString(),
    handledAt: row.handledAt?.toISOString() ?? null,
  };
}
