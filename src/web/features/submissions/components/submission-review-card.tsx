import { ExternalLink, Save } from 'lucide-react';
import { useState } from 'react';
import { DJ_GENRE_LABELS, SUBMISSION_MESSAGES, SUBMISSION_STATUSES, type Submission, type SubmissionStatus } from '../../../../contracts/submissions';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { formatDateTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { SelectField, TextAreaField } from '../../../components/ui/form-controls';
import { useReviewSubmission } from '../api/review-submission';

export const STATUS_LABEL: Record<SubmissionStatus, string> = { new: 'New', listening: 'Listening', accepted: 'Accepted', declined: 'Declined' };
const STATUS_TONE: Record<SubmissionStatus, BadgeTone> = { new: 'cyan', listening: 'yellow', accepted: 'green', declined: 'red' };
const statusOptions = SUBMISSION_STATUSES.map((s) => ({ value: s, label: STATUS_LABEL[s] }));

/** One submission in the review queue: what the DJ sent, its status and the reviewer's note. */
export function SubmissionReviewCard({ s, onDone }: { s: Submission; onDone: (ok: boolean, text: string) => void }) {
  const review = useReviewSubmission();
  const [status, setStatus] = useState<SubmissionStatus>(s.status);
  const [note, setNote] = useState(s.note ?? '');
  const changed = status !== s.status || note !== (s.note ?? '');

  function save() {
    review.mutate(
      { id: s.id, change: { status, note } },
      {
        onSuccess: () => onDone(true, SUBMISSION_MESSAGES.statusSaved + (status === 'accepted' || status === 'declined' ? ' (the DJ is emailed)' : '')),
        onError: (err) => onDone(false, errorMessage(err, 'Failed to update submission')),
      },
    );
  }

  return (
    <Card className="flex flex-col gap-4" data-testid="submission">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-display text-lg font-semibold break-words text-white">{s.mixTitle}</h3>
          <p className="text-sm text-mist-300">
            {s.artistName} ·{' '}
            <a className="text-aqua-300 hover:underline" href={`mailto:${s.email}`}>
              {s.email}
            </a>
          </p>
        </div>
        <Badge tone={STATUS_TONE[s.status]}>{STATUS_LABEL[s.status]}</Badge>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs text-mist-500">Genre</dt>
          <dd className="text-mist-200">{DJ_GENRE_LABELS[s.genre as keyof typeof DJ_GENRE_LABELS] ?? s.genre}</dd>
        </div>
        <div>
          <dt className="text-xs text-mist-500">Duration</dt>
          <dd className="text-mist-200">{s.duration ?? '—'}</dd>
        </div>
        <div>
          <dt className="text-xs text-mist-500">Received</dt>
          <dd className="text-mist-200">{formatDateTime(s.createdAt)}</dd>
        </div>
        <div>
          <dt className="text-xs text-mist-500">Social</dt>
          <dd className="truncate text-mist-200">{s.socialMedia ?? '—'}</dd>
        </div>
      </dl>
      <p className="text-sm leading-relaxed whitespace-pre-line text-mist-300">{s.description}</p>
      {s.previousReleases && <p className="text-sm text-mist-400">Previous releases: {s.previousReleases}</p>}
      <a
        href={s.wetransferLink}
        target="_blank"
        rel="noopener noreferrer nofollow"
        className="inline-flex max-w-full items-center gap-2 self-start truncate text-sm font-medium text-aqua-300 hover:underline"
      >
        <ExternalLink className="size-4 shrink-0" aria-hidden="true" />
        <span className="truncate">{s.wetransferLink}</span>
      </a>
      <div className="grid grid-cols-1 gap-3 border-t border-white/10 pt-4 sm:grid-cols-[12rem_1fr_auto] sm:items-end">
        <SelectField label="Status" value={status} onChange={(e) => setStatus(e.target.value as SubmissionStatus)} options={statusOptions} />
        <TextAreaField
          label="Note (sent to the DJ with a decision)"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          maxLength={2000}
          className="[&_textarea]:min-h-11"
          rows={1}
        />
        <Button onClick={save} disabled={!changed || review.isPending}>
          <Save className="size-4" aria-hidden="true" /> {review.isPending ? 'Saving...' : 'Save'}
        </Button>
      </div>
    </Card>
  );
}
