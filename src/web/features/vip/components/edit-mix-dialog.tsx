import { useState, type FormEvent } from 'react';
import { MIX_GENRES, MIX_MAX_DURATION_S } from '../../../../contracts/mix-values';
import type { AdminVipMix, MixDetails } from '../../../../contracts/mixes';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FilePicker } from '../../../components/ui/file-picker';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../../components/ui/form-controls';
import { formatDuration } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { useSetMixArtwork, useUpdateMix } from '../api/admin-mixes';

const genreOptions = MIX_GENRES.map((g) => ({ value: g, label: g }));

/** Edit a mix: its details, duration, visibility to members and artwork (saved together). */
export function EditMixDialog({ mix, open, onOpenChange }: { mix: AdminVipMix; open: boolean; onOpenChange: (open: boolean) => void }) {
  const update = useUpdateMix();
  const setArtwork = useSetMixArtwork();
  const [error, setError] = useState<string | null>(null);
  const saving = update.isPending || setArtwork.isPending;

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    setError(null);
    try {
      await update.mutateAsync({
        id: mix.id,
        patch: {
          title: String(data.get('title') ?? ''),
          artist: String(data.get('artist') ?? ''),
          genre: String(data.get('genre') ?? '') as MixDetails['genre'],
          description: String(data.get('description') ?? ''),
          duration: Number(data.get('duration')),
          hidden: data.get('hidden') === 'on',
        },
      });
      const artwork = data.get('artwork');
      if (artwork instanceof File && artwork.size > 0) await setArtwork.mutateAsync({ id: mix.id, file: artwork });
      onOpenChange(false);
    } catch (err) {
      setError(errorMessage(err, 'Failed to save the mix'));
    }
  }

  const formId = `edit-mix-${mix.id}`;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (setError(null), onOpenChange(next))}
      title={`Edit ${mix.title}`}
      description="Changes show on /vip at once."
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" form={formId} disabled={saving}>
            {saving ? 'Saving...' : 'Save'}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={(e) => void submit(e)} className="grid gap-3" aria-label={`Edit ${mix.title}`}>
        <TextField name="title" label="Title" required maxLength={200} defaultValue={mix.title} />
        <TextField name="artist" label="Artist" required maxLength={200} defaultValue={mix.artist} />
        <SelectField name="genre" label="Genre" className="capitalize" defaultValue={mix.genre} options={genreOptions} />
        <TextField
          name="duration"
          label="Duration (seconds)"
          type="number"
          required
          min={1}
          max={MIX_MAX_DURATION_S}
          step={1}
          defaultValue={mix.duration}
          hint={`Now ${formatDuration(mix.duration)}`}
        />
        <TextAreaField name="description" label="Description" maxLength={2000} defaultValue={mix.description} />
        <FilePicker name="artwork" label="New artwork (optional)" accept="image/jpeg,image/png,image/webp,image/gif" />
        <CheckboxField name="hidden" label="Hidden from members" defaultChecked={mix.hidden} />
        {error && (
          <p role="alert" className="text-sm text-rose-300">
            {error}
          </p>
        )}
      </form>
    </Dialog>
  );
}
