import { AudioLines, Clock, FileAudio, Headphones, Link2, ListChecks, Music2 } from 'lucide-react';
import { DJ_GENRE_LABELS, DJ_GENRES, SUBMISSION_FIGURES } from '../../../../contracts/submissions';
import { Card } from '../../../components/ui/card';
import { PageContainer } from '../../../components/ui/page-container';
import { SectionHeading } from '../../../components/ui/section-heading';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { SubmissionForm } from '../components/submission-form';
import { tierLabel } from '../../../../contracts/tier-table';

const GUIDELINES = [
  { icon: FileAudio, text: '320kbps MP3 minimum, WAV preferred.' },
  { icon: Clock, text: 'Mixes of 45 minutes to 2 hours.' },
  { icon: Link2, text: 'Share a download link (WeTransfer, Dropbox, Google Drive) that stays up for 7 days.' },
  { icon: ListChecks, text: 'Add a tracklist or a few words on the mood in the description.' },
  { icon: Headphones, text: 'Original mixes only; no radio shows with talk-overs.' },
];

/** /upload: DJ submissions, posted to the station (docs/decisions/0018-live-monitor-shop-submissions.md). */
export default function UploadPage() {
  useDocumentTitle('DJ Submissions');
  return (
    <PageContainer className="flex flex-col gap-8 py-10 sm:gap-10 sm:py-14">
      <SectionHeading
        as="h1"
        eyebrow="DJ Submissions"
        title="Get your mix on Deep House Radio"
        description={`Send us your best deep house set. Every mix is heard by our team, and the best ones air on ${tierLabel('dhr1')} and ${tierLabel('dhr2')}.`}
      />

      <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4" aria-label="Submissions in numbers">
        {SUBMISSION_FIGURES.map((f) => (
          <li key={f.label}>
            <Card padding="sm" className="text-center sm:p-5">
              <p className="font-display text-2xl font-bold text-white sm:text-3xl">{f.value}</p>
              <p className="mt-1 text-xs font-semibold tracking-[0.14em] text-mist-400 uppercase">{f.label}</p>
            </Card>
          </li>
        ))}
      </ul>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[2fr_1fr]">
        <SubmissionForm />
        <aside className="flex flex-col gap-4">
          <Card>
            <h2 className="mb-4 flex items-center gap-2 font-display text-lg font-semibold text-white">
              <AudioLines className="size-5 text-aqua-300" aria-hidden="true" /> Guidelines
            </h2>
            <ul className="flex flex-col gap-3 text-sm text-mist-300">
              {GUIDELINES.map((g) => (
                <li key={g.text} className="flex gap-3">
                  <g.icon className="mt-0.5 size-4 shrink-0 text-deep-300" aria-hidden="true" />
                  {g.text}
                </li>
              ))}
            </ul>
          </Card>
          <Card>
            <h2 className="mb-4 flex items-center gap-2 font-display text-lg font-semibold text-white">
              <Music2 className="size-5 text-aqua-300" aria-hidden="true" /> Genres we play
            </h2>
            <ul className="flex flex-wrap gap-2">
              {DJ_GENRES.map((g) => (
                <li key={g} className="rounded-full bg-white/5 px-3 py-1 text-xs font-medium text-mist-200 ring-1 ring-white/10">
                  {DJ_GENRE_LABELS[g]}
                </li>
              ))}
            </ul>
          </Card>
        </aside>
      </div>
    </PageContainer>
  );
}
