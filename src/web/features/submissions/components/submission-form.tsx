import { CheckCircle2, Loader2, Send } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { DJ_GENRE_LABELS, DJ_GENRES, SUBMISSION_MESSAGES, submissionBodySchema, type SubmissionBody } from '../../../../contracts/submissions';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { errorMessage } from '../../../lib/http';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/form-controls';
import { EMAIL_MAX_LENGTH } from '../../../../contracts/email';
import { useSubmitMix } from '../api/submit-mix';

const EMPTY = {
  artistName: '',
  email: '',
  mixTitle: '',
  genre: '',
  duration: '',
  description: '',
  wetransferLink: '',
  socialMedia: '',
  previousReleases: '',
  website: '',
};
type Form = typeof EMPTY;

const genreOptions = [{ value: '', label: 'Choose a genre' }, ...DJ_GENRES.map((g) => ({ value: g, label: DJ_GENRE_LABELS[g] }))];

/** The first problem with the form, in the spec's words, or null when it can be sent. */
export function formProblem(form: Form): string | null {
  const required = [form.artistName, form.email, form.mixTitle, form.genre, form.description, form.wetransferLink];
  if (required.some((v) => !v.trim())) return SUBMISSION_MESSAGES.required;
  const parsed = submissionBodySchema.safeParse(form);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? SUBMISSION_MESSAGES.required);
}

/** The DJ submission form: idle, submitting (2 s at least), success. */
export function SubmissionForm() {
  const [form, setForm] = useState<Form>(EMPTY);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = useSubmitMix();
  const set = (key: keyof Form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const p = formProblem(form);
    setProblem(p);
    if (p) return;
    submit.mutate(form as SubmissionBody, { onSuccess: () => setForm(EMPTY) });
  }

  if (submit.isSuccess) {
    return (
      <Card padding="lg" className="flex flex-col items-center gap-4 text-center" role="status">
        <CheckCircle2 className="size-12 text-emerald-300" aria-hidden="true" />
        <h2 className="font-display text-2xl font-bold text-white">Mix received</h2>
        <p className="max-w-md text-mist-300">{submit.data.message}</p>
        <Button variant="secondary" onClick={() => submit.reset()}>
          Submit another mix
        </Button>
      </Card>
    );
  }

  const error = problem ?? (submit.isError ? errorMessage(submit.error, 'Submission failed. Please try again.') : null);
  const busy = submit.isPending;
  return (
    <Card padding="lg">
      <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-4 sm:grid-cols-2" aria-label="Submit your mix">
        <h2 className="font-display text-xl font-bold text-white sm:col-span-2">Submit your mix</h2>
        {error && (
          <p role="alert" className="rounded-xl border border-rose-500/40 bg-rose-500/10 px-4 py-3 text-sm text-rose-100 sm:col-span-2">
            {error}
          </p>
        )}
        <TextField label="Artist / DJ name *" value={form.artistName} onChange={set('artistName')} maxLength={100} autoComplete="nickname" disabled={busy} />
        <TextField label="Email *" type="email" value={form.email} onChange={set('email')} maxLength={EMAIL_MAX_LENGTH} autoComplete="email" disabled={busy} />
        <TextField label="Mix title *" value={form.mixTitle} onChange={set('mixTitle')} maxLength={200} disabled={busy} />
        <SelectField label="Genre *" value={form.genre} onChange={set('genre')} options={genreOptions} disabled={busy} />
        <TextField label="Duration" placeholder="e.g. 60 min" value={form.duration} onChange={set('duration')} maxLength={50} disabled={busy} />
        <TextField
          label="WeTransfer / download link *"
          type="url"
          inputMode="url"
          placeholder="https://we.tl/..."
          value={form.wetransferLink}
          onChange={set('wetransferLink')}
          maxLength={2000}
          disabled={busy}
        />
        <TextAreaField
          label="Description *"
          className="sm:col-span-2"
          placeholder="The story of the mix, the mood, a tracklist..."
          value={form.description}
          onChange={set('description')}
          maxLength={2000}
          disabled={busy}
        />
        <TextField label="Social media" placeholder="@you or a link" value={form.socialMedia} onChange={set('socialMedia')} maxLength={300} disabled={busy} />
        <TextField
          label="Previous releases"
          placeholder="Labels, EPs, radio shows"
          value={form.previousReleases}
          onChange={set('previousReleases')}
          maxLength={1000}
          disabled={busy}
        />
        {/* A field people never see; bots fill it (the server then stores nothing). */}
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label>
            Website
            <input tabIndex={-1} autoComplete="off" value={form.website} onChange={set('website')} />
          </label>
        </div>
        <div className="flex flex-col gap-3 sm:col-span-2 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-xs text-mist-500">* required. 320kbps MP3 minimum, WAV preferred.</p>
          <Button type="submit" size="lg" disabled={busy} aria-busy={busy}>
            {busy ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <Send className="size-4" aria-hidden="true" />}
            {busy ? 'Submitting...' : 'Submit Mix'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
