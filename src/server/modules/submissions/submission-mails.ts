import { DJ_GENRE_LABELS, type SubmissionStatus } from '../../../contracts/submissions';
import type { DjSubmissionRow } from '../../db/schema';
import { composeMail, type MailMessage } from '../../lib/mail';

const genre = (g: string) => DJ_GENRE_LABELS[g as keyof typeof DJ_GENRE_LABELS] ?? g;

/** To the station: everything the DJ sent, and where to review it. */
export function stationMail(to: string, s: DjSubmissionRow, reviewUrl: string): MailMessage {
  const lines = [
    `Artist: ${s.artistName}`,
    `Email: ${s.email}`,
    `Mix: ${s.mixTitle}`,
    `Genre: ${genre(s.genre)}`,
    ...(s.duration ? [`Duration: ${s.duration}`] : []),
    `Link: ${s.wetransferLink}`,
    ...(s.socialMedia ? [`Social: ${s.socialMedia}`] : []),
    ...(s.previousReleases ? [`Previous releases: ${s.previousReleases}`] : []),
  ];
  return composeMail({
    to,
    subject: `DJ submission: ${s.mixTitle} by ${s.artistName}`,
    greeting: 'A new mix was submitted on Deep House Radio.',
    paragraphs: [...lines, s.description],
    action: { label: 'Review submissions', url: reviewUrl },
    footer: 'Reply to this email to write to the DJ.',
  });
}

/*
 * Mail to the DJ goes to an address nobody has proven (anyone may type any address in the form), so it
 * carries only the station's words and the station's own link: no title, name or link the sender
 * typed, or the station's mail could be borrowed to deliver someone else's message.
 */

/** To the DJ: the receipt. */
export function receiptMail(s: DjSubmissionRow, publicUrl: string): MailMessage {
  return composeMail({
    to: s.email,
    subject: 'We received your mix submission',
    greeting: 'Hi,',
    paragraphs: [
      'Thanks for sending a mix to Deep House Radio. Our team listens to every submission; expect an answer within 5-7 days.',
      'Please keep your download link available until we have listened (WeTransfer links expire after 7 days).',
    ],
    action: { label: 'Deep House Radio', url: publicUrl },
    footer: 'You receive this email because this address was entered on the DHR DJ submissions page. If that was not you, ignore it.',
  });
}

/** To the DJ once the review decided (the note is the team's own words). */
export function decisionMail(s: DjSubmissionRow, status: Extract<SubmissionStatus, 'accepted' | 'declined'>, publicUrl: string): MailMessage {
  const note = s.note ? [`A note from the team: ${s.note}`] : [];
  const common = {
    to: s.email,
    greeting: 'Hi,',
    action: { label: 'Deep House Radio', url: publicUrl },
    footer: 'Thank you for sharing your music with the DHR community.',
  };
  return status === 'accepted'
    ? composeMail({
        ...common,
        subject: 'Your mix was accepted',
        paragraphs: ['Great news: the mix you sent was accepted for Deep House Radio. We will be in touch about the air date.', ...note],
      })
    : composeMail({
        ...common,
        subject: 'About your mix submission',
        paragraphs: ['Thank you for sending a mix. This time it is not a fit for the DHR schedule.', ...note, 'You are welcome to submit another mix.'],
      });
}
