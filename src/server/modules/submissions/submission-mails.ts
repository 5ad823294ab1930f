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

/** To the DJ: the receipt. */
export function receiptMail(s: DjSubmissionRow): MailMessage {
  return composeMail({
    to: s.email,
    subject: `We received your mix: ${s.mixTitle}`,
    greeting: `Hi ${s.artistName},`,
    paragraphs: [
      `Thanks for sending "${s.mixTitle}" to Deep House Radio. Our team listens to every submission; expect an answer within 5-7 days.`,
      `The link you sent: ${s.wetransferLink}. Please keep it available until we have listened (WeTransfer links expire after 7 days).`,
    ],
    footer: 'You receive this email because this address was entered on the DHR DJ submissions page.',
  });
}

/** To the DJ once the review decided. */
export function decisionMail(s: DjSubmissionRow, status: Extract<SubmissionStatus, 'accepted' | 'declined'>): MailMessage {
  const note = s.note ? [`A note from the team: ${s.note}`] : [];
  return status === 'accepted'
    ? composeMail({
        to: s.email,
        subject: `Your mix was accepted: ${s.mixTitle}`,
        greeting: `Hi ${s.artistName},`,
        paragraphs: [`Great news: "${s.mixTitle}" was accepted for Deep House Radio. We will be in touch about the air date.`, ...note],
        footer: 'Thank you for sharing your music with the DHR community.',
      })
    : composeMail({
        to: s.email,
        subject: `About your mix: ${s.mixTitle}`,
        greeting: `Hi ${s.artistName},`,
        paragraphs: [`Thank you for sending "${s.mixTitle}". This time it is not a fit for the DHR schedule.`, ...note, 'You are welcome to submit another mix.'],
        footer: 'Thank you for sharing your music with the DHR community.',
      });
}
