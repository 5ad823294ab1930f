import { Upload, X } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { MIX_GENRES } from '../../../../contracts/mix-values';
import type { MixDetails } from '../../../../contracts/mixes';
import { Button } from '../../../components/ui/button';
import { FilePicker, UploadProgress } from '../../../components/ui/file-picker';
import { SelectField, TextField } from '../../../components/ui/form-controls';
import { formatDuration } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { useMixUpload, type MixUpload } from '../api/admin-mixes';
import { useTagPreview } from '../hooks/use-tag-preview';
import { uploadStats } from '../lib/upload-stats';

const genreOptions = MIX_GENRES.map((g) => ({ value: g, label: g }));

interface Running {
  upload: MixUpload;
  startedAt: number;
  loaded: number;
  total: number;
  /** A chunk failed and is being retried. */
  connectionLost: boolean;
}

/** What an admin reads when a resumable upload gave up: how to carry on from where the server has it. */
const resumeHint = (loaded: number, total: number) => `Choose the same file to resume from ${Math.floor((100 * loaded) / Math.max(1, total))} %.`;

/**
 * Upload a mix: choosing a file reads its tags (the first megabyte goes to the preview route) and
 * fills in the fields left empty; the upload shows bytes, percent, speed and time left, and Cancel
 * stops it with nothing kept.
 */
export function MixUploadForm() {
  const start = useMixUpload();
  const formRef = useRef<HTMLFormElement>(null);
  const genreTouched = useRef(false);
  const [running, setRunning] = useState<Running | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const { found, clearFound, onFile } = useTagPreview(formRef, genreTouched);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const file = data.get('file');
    const artwork = data.get('artwork');
    if (!(file instanceof File) || file.size === 0) return setMessage({ text: 'Choose an audio file to upload', error: true });
    const details: MixDetails = {
      title: String(data.get('title') ?? ''),
      artist: String(data.get('artist') ?? ''),
      genre: String(data.get('genre') ?? '') as MixDetails['genre'],
      description: String(data.get('description') ?? ''),
    };
    setMessage(null);
    const startedAt = Date.now();
    let sent = { loaded: 0, total: file.size };
    const upload = start(
      details,
      file,
      artwork instanceof File && artwork.size > 0 ? artwork : null,
      ({ loaded, total }) => {
        sent = { loaded, total };
        setRunning((r) => (r ? { ...r, loaded, total } : r));
      },
      (connectionLost) => setRunning((r) => (r && r.connectionLost !== connectionLost ? { ...r, connectionLost } : r)),
    );
    setRunning({ upload, startedAt, loaded: 0, total: file.size, connectionLost: false });
    upload.done.then(
      (mix) => {
        setRunning(null);
        setMessage({ text: `Uploaded: ${mix.title} (${formatDuration(mix.duration)})`, error: false });
        form.reset();
        genreTouched.current = false;
        clearFound();
      },
      (err: unknown) => {
        setRunning(null);
        const cancelled = err instanceof DOMException && err.name === 'AbortError';
        if (cancelled) return setMessage({ text: 'Upload cancelled', error: false });
        const failed = errorMessage(err, 'Upload failed');
        setMessage({ text: upload.resumable && sent.loaded > 0 ? `${failed}. ${resumeHint(sent.loaded, sent.total)}` : failed, error: true });
      },
    );
  }

  return (
    <form ref={formRef} onSubmit={submit} className="glass mt-8 grid gap-3 rounded-3xl p-5 sm:grid-cols-2 sm:p-6" aria-label="Upload a mix">
      <h2 className="font-display text-xl font-bold text-white sm:col-span-2">Upload a mix</h2>
      <TextField name="title" label="Title" required maxLength={200} placeholder="Title" />
      <TextField name="artist" label="Artist" required maxLength={200} placeholder="Artist" />
      <SelectField
        name="genre"
        label="Genre"
        className="capitalize"
        defaultValue="deep house"
        options={genreOptions}
        onChange={() => (genreTouched.current = true)}
      />
      <TextField name="description" label="Description" maxLength={2000} placeholder="Description" />
      <FilePicker
        name="file"
        label="Audio (MP3, AAC/M4A, FLAC, WAV)"
        required
        accept=".mp3,.m4a,.aac,.flac,.wav,audio/*"
        onChange={(e) => void onFile(e)}
        disabled={running !== null}
        hint={found ?? undefined}
      />
      <FilePicker
        name="artwork"
        label="Artwork (optional; else the file's own)"
        accept="image/jpeg,image/png,image/webp,image/gif"
        disabled={running !== null}
      />
      {running && <UploadStatus running={running} />}
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        {running ? (
          // Own keys: a reused element would turn into the submit button while its click is still being handled, and upload again.
          <Button key="cancel" variant="secondary" onClick={() => running.upload.cancel()}>
            <X className="size-4" aria-hidden="true" /> Cancel
          </Button>
        ) : (
          <Button key="upload" type="submit">
            <Upload className="size-4" aria-hidden="true" /> Upload
          </Button>
        )}
        {message && (
          <p role="status" className={message.error ? 'text-sm text-rose-300' : 'text-sm text-emerald-300'}>
            {message.text}
          </p>
        )}
      </div>
    </form>
  );
}

/** Bytes, percent, speed and time left of the running upload, or that its connection is lost. */
function UploadStatus({ running }: { running: Running }) {
  const [now, setNow] = useState(running.startedAt);
  // The speed and time left move on between progress events too.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, []);
  const stats = uploadStats(running.loaded, running.total, now - running.startedAt);
  return (
    <div className="sm:col-span-2" data-testid="upload-status">
      <UploadProgress value={stats.fraction} label="Mix upload" />
      <p className="mt-2 text-sm text-mist-300 tabular-nums" aria-live="polite">
        {running.connectionLost ? 'Connection lost — retrying…' : stats.text}
      </p>
    </div>
  );
}
