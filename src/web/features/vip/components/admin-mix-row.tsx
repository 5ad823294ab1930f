import { EyeOff, Link2, Music2, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { AdminVipMix } from '../../../../contracts/mixes';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { useConfirm } from '../../../components/ui/confirm';
import { TextField } from '../../../components/ui/form-controls';
import { formatDuration } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { useDeleteMix, useSetMixLink } from '../api/admin-mixes';
import { formatBytes } from '../lib/mix-access';
import { EditMixDialog } from './edit-mix-dialog';
import { RenditionBadge } from './rendition-badge';

/** One mix of the admin list: artwork, facts, plays, hidden and listening-copy state, Edit (dialog), Edit Links, Delete. */
export function AdminMixRow({ mix }: { mix: AdminVipMix }) {
  const [editingLink, setEditingLink] = useState(false);
  const [editing, setEditing] = useState(false);
  const [link, setLink] = useState(mix.s3Url ?? '');
  const setMixLink = useSetMixLink();
  const remove = useDeleteMix();
  const confirm = useConfirm();
  const [error, setError] = useState<string | null>(null);
  const save = () =>
    setMixLink.mutate(
      { id: mix.id, s3Url: link.trim() },
      { onSuccess: () => (setEditingLink(false), setError(null)), onError: (err) => setError(errorMessage(err, 'Failed to save the link')) },
    );
  return (
    <li data-testid="admin-mix" data-mix-id={mix.id} className="glass rounded-2xl p-4 sm:p-5">
      {confirm.dialog}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 gap-4">
          <div className="relative size-16 shrink-0 overflow-hidden rounded-xl bg-gradient-to-br from-deep-700 via-violet-800 to-aqua-800 sm:size-20">
            {mix.artworkUrl ? (
              <img src={mix.artworkUrl} alt="" loading="lazy" className="size-full object-cover" />
            ) : (
              <Music2 className="absolute inset-0 m-auto size-7 text-white/40" aria-hidden="true" />
            )}
          </div>
          <div className="min-w-0">
            <p className="font-semibold break-words text-white">
              {mix.title} <span className="font-normal text-aqua-200">· {mix.artist}</span>
            </p>
            {mix.description && <p className="mt-1 line-clamp-2 text-sm text-mist-400">{mix.description}</p>}
            <p className="mt-2 flex flex-wrap items-center gap-2 text-xs text-mist-400">
              {mix.hidden && (
                <Badge tone="red">
                  <EyeOff className="size-3" aria-hidden="true" /> Hidden
                </Badge>
              )}
              <Badge tone="neutral" className="capitalize">
                {mix.genre}
              </Badge>
              <span>
                {formatDuration(mix.duration)} · {formatBytes(mix.fileSize)}
                {mix.bitrateKbps ? ` · ${mix.bitrateKbps} kbps` : ''} · {mix.totalDownloads} {mix.totalDownloads === 1 ? 'download' : 'downloads'} · {mix.plays}{' '}
                {mix.plays === 1 ? 'play' : 'plays'}
              </span>
            </p>
            {mix.s3Url && <RenditionBadge mixId={mix.id} title={mix.title} rendition={mix.rendition} />}
            {!editingLink && (
              <p className="mt-2 flex items-center gap-2 text-sm break-all">
                <Link2 className="size-4 shrink-0 text-mist-500" aria-hidden="true" />
                {mix.s3Url ? <code className="text-mist-200">{mix.s3Url}</code> : <span className="text-amber-300">Not set</span>}
              </p>
            )}
          </div>
        </div>
        {!editingLink && (
          <div className="flex shrink-0 flex-wrap gap-2">
            <Button size="sm" variant="secondary" onClick={() => setEditing(true)} aria-label={`Edit ${mix.title}`}>
              <Pencil className="size-4" aria-hidden="true" /> Edit
            </Button>
            <Button size="sm" variant="secondary" onClick={() => (setLink(mix.s3Url ?? ''), setEditingLink(true))}>
              <Link2 className="size-4" aria-hidden="true" /> Edit Links
            </Button>
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Delete ${mix.title}`}
              onClick={async () => {
                if (await confirm.ask({ title: 'Delete the mix', message: `Delete '${mix.title}' and its file?`, confirmLabel: 'Delete' }))
                  remove.mutate(mix.id);
              }}
            >
              <Trash2 className="size-4" aria-hidden="true" />
            </Button>
          </div>
        )}
      </div>
      {editingLink && (
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
            <Button size="sm" variant="secondary" onClick={() => (setEditingLink(false), setError(null))}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      {error && <p className="mt-2 text-sm text-rose-300">{error}</p>}
      {editing && <EditMixDialog mix={mix} open={editing} onOpenChange={setEditing} />}
    </li>
  );
}
