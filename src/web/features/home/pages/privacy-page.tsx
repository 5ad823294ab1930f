import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageContainer } from '../../../components/ui/page-container';
import { SectionHeading } from '../../../components/ui/section-heading';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** What DHR stores, for how long, and how members export or delete it. Each line is read from the code that keeps it. */
const STORED: { what: string; holds: ReactNode; kept: ReactNode }[] = [
  {
    what: 'Your account',
    holds:
      'Email, username, first and last name if given, a password hash if you set one, admin flag, your membership (tier, status, source, expiry, pledge), when you joined, last signed in and confirmed your email.',
    kept: 'Until you delete your account.',
  },
  {
    what: 'Membership history',
    holds: 'Each grant (Patreon, Buy Me a Coffee, admin) and each change to your membership, with its reason.',
    kept: 'Until you delete your account.',
  },
  {
    what: 'Sessions',
    holds: 'A hash of the cookie, when it began and was last used, the IP address and browser (user agent) it was opened from.',
    kept: 'A session lasts 14 days from its last use, at most 30 days (12 hours for admins), and ends when you sign out. After 24 hours only the network of the address is kept (the first three parts of an IPv4 address, the first three groups of an IPv6 one).',
  },
  {
    what: 'Channel chat',
    holds: 'What you write in a channel chat, with the name, tier and supporter badge you had when you wrote it; when a moderator mutes you, until when.',
    kept: '30 days, then removed. When you delete your account your messages stay until then, shown as written by a deleted member.',
  },
  {
    what: 'VIP mix plays and streaming volume',
    holds: 'That you played a mix (one mark per mix, for play counts) and how many bytes of mixes you streamed each day (for the daily streaming limit).',
    kept: 'The play marks until you delete your account; each day’s streaming volume for two days.',
  },
  {
    what: 'Premium stream connections',
    holds:
      'For each connection to a paid channel: the channel, when it began and ended, your browser (user agent) and the network of your address (the first three parts of an IPv4 address, the first three groups of an IPv6 one), never the address itself. They limit how many connections a membership holds at once.',
    kept: '30 days after the connection ends.',
  },
  {
    what: 'Listening sessions',
    holds:
      'For each time anyone listens to a channel, free or paid: the channel and stream, when it began and ended, the player (user agent) and its family, the country and the network of the address (never the address itself), and, for a paid channel, your account. Sessions under 5 seconds are not kept. Daily listening figures made from them keep none of this.',
    kept: '30 days after the session ends. Your own are in your data export.',
  },
  {
    what: 'Sign-in links and codes',
    holds: 'The address they were sent to and a hash of the secret.',
    kept: 'They work for 10 minutes to 24 hours, and are deleted a day after they expire or are used.',
  },
  {
    what: 'Live monitor',
    holds:
      'The page you are on and, for members, the pages you visit, with the country and city your address points to (the address itself is not stored). Visitors who are not signed in are a random id their browser tab keeps.',
    kept: 'Removed one day after your last visit; never more than 30 days.',
  },
  {
    what: 'Comments and forum threads',
    holds: 'What you wrote, where, when, and reports you made.',
    kept: 'Until you or a moderator delete them. When you delete your account they stay, shown as written by a deleted member.',
  },
  {
    what: 'Profile and follows',
    holds: 'Bio, location, website, genres, pictures, notification choices; whom you follow and who follows you.',
    kept: 'Until you change them or delete your account.',
  },
  {
    what: 'VIP mix downloads',
    holds: 'Which mix you downloaded and when (for the daily download limit).',
    kept: 'Until you delete your account.',
  },
  {
    what: 'Platform records',
    holds: 'What Patreon and Buy Me a Coffee tell DHR about a payer: email, name, status, amount, charge dates, and the links between a payer and an account.',
    kept: 'While the platform lists the payer. Deleting your account removes the links; the record stays as the platform sent it, feeding nobody. Webhook deliveries are kept 180 days, sync logs 90 days.',
  },
  {
    what: 'Contact messages, DJ submissions, newsletter',
    holds: 'The name, email and message you send; a submission’s details; a newsletter address.',
    kept: 'Until the radio deletes them, or you unsubscribe from the newsletter. They are not tied to your account: ask through the contact form to have them removed.',
  },
  {
    what: 'Mail',
    holds: 'Messages DHR sends you (sign-in links, confirmations).',
    kept: 'Handed to the mail server at once. Without a mail server configured, a copy is written to the server’s outbox folder until the operator clears it.',
  },
  {
    what: 'Logs',
    holds: 'Each request’s method, path (without its query), status and client address; errors without any personal data.',
    kept: 'As long as the host keeps the server’s output.',
  },
  {
    what: 'Rate limits',
    holds: 'Counters of recent requests per address (an IPv6 address by its /64), per hashed email or per member.',
    kept: 'An hour at most, then deleted.',
  },
];

export default function PrivacyPage() {
  useDocumentTitle('Privacy');
  return (
    <PageContainer width="narrow" className="space-y-10 py-10 sm:py-14">
      <SectionHeading
        as="h1"
        eyebrow="Privacy"
        title="What DHR keeps, and for how long"
        description="Deep House Radio keeps what it needs to run your account and the radio, nothing sold or shared for advertising."
      />
      <section aria-labelledby="stored-heading" className="space-y-4">
        <h2 id="stored-heading" className="text-lg font-semibold text-white">
          What is stored
        </h2>
        <dl className="space-y-4">
          {STORED.map((s) => (
            <div key={s.what} className="glass rounded-3xl p-5">
              <dt className="font-semibold text-white">{s.what}</dt>
              <dd className="mt-2 text-sm leading-relaxed text-mist-300">{s.holds}</dd>
              <dd className="mt-2 text-sm leading-relaxed text-mist-400">
                <span className="font-semibold text-mist-200">Kept: </span>
                {s.kept}
              </dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-labelledby="rights-heading" className="space-y-3 text-sm leading-relaxed text-mist-300">
        <h2 id="rights-heading" className="text-lg font-semibold text-white">
          Your data, your choice
        </h2>
        <p>
          On{' '}
          <Link to="/auth" className="text-aqua-300 underline underline-offset-4">
            your account page
          </Link>
          : <strong>Download my data</strong> saves everything above that is tied to your account as one JSON file; <strong>Change email</strong> moves the
          account to a new address once that address confirms; <strong>Delete my account</strong> removes your account, profile, follows, sessions and sign-in
          links at once, confirmed by your password or by a link we email you. Deleting ends access at once, including paid time left; payments themselves are
          managed on Patreon or Buy Me a Coffee.
        </p>
      </section>
    </PageContainer>
  );
}
