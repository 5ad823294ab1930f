import { Crown, Database, ExternalLink, Link2, Pencil, RefreshCw, Trash2, Upload } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { access } from '../../../../contracts/access-policy';
import { MIX_GENRES, type AdminVipMix } from '../../../../contracts/mixes';
import { Badge } from '../../../components/ui/badge';
import { Button, ButtonLink } from '../../../components/ui/button';
import { FilePicker } from '../../../components/ui/file-picker';
import { SelectField, TextField } from '../../../components/ui/form-controls';
import { PageContainer } from '../../../components/ui/page-container';
import { Spinner } from '../../../components/ui/spinner';
import { formatDuration } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AccessGate } from '../../auth';
import { useAdminMixes, useDeleteMix, useSetMixLink, useUploadMix } from '../api/admin-mixes';
import { formatBytes } from '../lib/mix-access';
import { RenditionBadge } from '../components/rendition-badge';

const genreOptions = MIX_GENRES.map((g) => ({ value: g, label: g }));

/** /vip-admin: the library with its storage links, upload, edit links, delete. */
export default function VipAdminPage() {
  useDocumentTitle('VIP Content');
  return (
    <AccessGate policy={access.admin}>
      <VipAdmin />
    </AccessGate>
  );
}

function VipAdmin() {
  const { data: mixes, isPending, isError } = useAdminMixes();
  return (
    <PageContainer className="py-10 sm:py-14">
      <header className="flex flex-col gap-5 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="flex items-center gap-2 text-xs font-semibold tracking-[0.25em] text-amber-200 uppercase">
            <Crown className="size-4" aria-hidden="true" /> Admin
          </p>
          <h1 className="mt-3 font-display text-4xl font-bold tracking-tight text-white">VIP Content</h1>
          <p className="mt-2 text-mist-300">{mixes ? `${mixes.length} mixes in the library.` : 'The VIP mix library and the storage link of each mix.'}</p>
        </div>
        <nav className="flex flex-wrap gap-2" aria-label="VIP admin links">
          <ButtonLink to="/sync" variant="secondary" size="sm">
            <RefreshCw className="size-4" aria-hidden="true" /> Sync
          </ButtonLink>
          <ButtonLink to="/bulk-import" variant="secondary" size="sm">
            <Upload className="size-4" aria-hidden="true" /> Bulk Import
          </ButtonLink>
          <ButtonLink to="/storage-setup" variant="secondary" size="sm">
            <Database className="size-4" aria-hidden="true" /> Storage Setup
          </ButtonLink>
          <ButtonLink to="/vip" variant="secondary" size="sm">
            <ExternalLink className="size-4" aria-hidden="true" /> VIP Page
          </ButtonLink>
        </nav>
      </header>
      <UploadForm />
      {isPending ? (
        <div className="mt-12 flex justify-center">
          <Spinner label="Loading mixes..." />
        </div>
      ) : isError ? (
        <p className="mt-12 text-center text-rose-300">Failed to load the mixes.</p>
      ) : (
        <ul className="mt-8 space-y-3">
          {mixes.map((mix) => (
            <MixRow key={mix.id} mix={mix} />
          ))}
        </ul>
      )}
    </PageContainer>
  );
}

function UploadForm() {
  // 0..1 while the mix is sent, null while its size is unknown.
  const [progress, setProgress] = useState<number | null>(null);
  const upload = useUploadMix((p) => setProgress(p.total ? p.loaded / p.total : null));
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    setMessage(null);
    setProgress(null);
    upload.mutate(new FormData(form), {
      onSuccess: (mix) => {
        setMessage({ text: `Uploaded: ${mix.title} (${formatDuration(mix.duration)})`, error: false });
        form.reset();
      },
      onError: (err) => setMessage({ text: errorMessage(err, 'Upload failed'), error: true }),
    });
  }
  return (
    <form onSubmit={submit} className="glass mt-8 grid gap-3 rounded-3xl p-5 sm:grid-cols-2 sm:p-6" aria-label="Upload a mix">
      <h2 className="font-display text-xl font-bold text-white sm:col-span-2">Upload a mix</h2>
      <TextField name="title" label="Title" required maxLength={200} placeholder="Title" />
      <TextField name="artist" label="Artist" required maxLength={200} placeholder="Artist" />
      <SelectField name="genre" label="Genre" className="capitalize" defaultValue="deep house" options={genreOptions} />
      <TextField name="description" label="Description" maxLength={2000} placeholder="Description" />
      <FilePicker
        name="file"
        label="Audio (MP3, AAC/M4A, FLAC, WAV)"
        required
        accept=".mp3,.m4a,.aac,.flac,.wav,audio/*"
        progress={upload.isPending ? progress : undefined}
      />
      <FilePicker name="artwork" label="Artwork (optional; else the file's own)" accept="image/jpeg,image/png,image/webp,image/gif" />
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <Button type="submit" disabled={upload.isPending}>
          <Upload className="size-4" aria-hidden="true" /> {upload.isPending ? 'Uploading...' : 'Upload'}
        </Button>
        {message && <p className={message.error ? 'text-sm text-rose-300' : 'text-sm text-emerald-300'}>{message.text}</p>}
      </div>
    </form>
  );
}

function MixRow({ mix }: { mix: AdminVipMix }) {
  const [editing, setEditing] = useState(false);
  const [link, setLink] = useState(mix.s3Url ?? '');
  const setMixLink = useSetMixLink();
  const remove = useDeleteMix();
  const [error, setError] = useState<string | null>(null);
  const save = () =>
    setMixLink.mutate(
      { id: mix.id, s3Url: link.trim() },
      { onSuccess: () => (setEditing(false), setError(null)), onError: (err) => setError(errorMessage(err, 'Failed to save the link')) },
    );
  return (
    <li data-testid="admin-mix" className="glass rounded-2xl p-4 sm:p-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="font-semibold text-white">
            {mix.title} <span className="font-normal text-aqua-200">· {mix.artist}</span>
          </p>
          <p className="mt-1 text-sm text-mist-400">{mix.description}</p>
          <p className="mt-2 flex flex-wrap items-center gap-2 text-xs text-mist-400">
            <Badge tone="neutral" className="capitalize">
              {mix.genre}
            </Badge>
            {formatDuration(mix.duration)} · {formatBytes(mix.fileSize)}
            {mix.bitrateKbps ? ` · ${mix.bitrateKbps} kbps` : ''} · {mix.totalDownloads} downloads · {mix.plays} plays
          </p>
          {mix.s3Url && <RenditionBadge mixId={mix.id} title={mix.title} rendition={mix.rendition} />}
          {!editing && (
            <p className="mt-2 flex items-center gap-2 text-sm break-all">
              <Link2 className="size-4 shrink-0 text-mist-500" aria-hidden="true" />
              {mix.s3Url ? <code className="text-mist-200">{mix.s3Url}</code> : <span className="text-amber-300">Not set</span>}
            </p>
          )}
        </div>
        {!editing && (
          <div className="flex shrink-0 gap-2">
            <Button size="sm" variant="secondary" onClick={() => (setLink(mix.s3Url ?? ''), setEditing(true))}>
              <Pencil className="size-4" aria-hidden="true" /> Edit Links
            </Button>
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Delete ${mix.title}`}
              onClick={() => window.confirm(`Delete '${mix.title}' and its file?`) && remove.mutate(mix.id)}
            >
              <Trash2 className="size-4" aria-hidden="true" />
            </Button>
          </div>
        )}
      </div>
      {editing && (
        <div className="mt-3 flex flex-col gap-2 sm:flex-row">
          <TextField
            label="Storage link"
            className="flex-1"
            value={link}
            onChange={(e) => setLink(e.target.value)}
            placeholder="mixes/name.mp3 or https://..."
          />
          <div className="flex gap-2 sm:self-end sm:pb-0.5">
            <Button size="sm" onClick={save} disabled={setMixLink.isPending}>
              Save
            </Button>
            <Button size="sm" variant="secondary" onClick={() => (setEditing(false), setError(null))}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      {error && <p className="mt-2 text-sm text-rose-300">{error}</p>}
    </li>
  );
}
