import { useEffect, useRef, useState, type ChangeEvent, type RefObject } from 'react';
import { MIX_GENRES } from '../../../../contracts/mix-values';
import type { MixTags } from '../../../../contracts/mixes';
import { formatDuration } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { previewMixTags } from '../api/admin-mixes';

/** The tag's genre as one of ours, when it is one. */
function knownGenre(tag: string | null): string | undefined {
  const g = tag?.trim().toLowerCase();
  return MIX_GENRES.find((known) => known === g);
}

/** What the preview found, in one line under the file. */
function describeTags(tags: MixTags): string {
  const facts = [
    tags.durationS ? formatDuration(tags.durationS) : null,
    tags.bitrateKbps ? `${tags.bitrateKbps} kbps` : null,
    tags.artwork ? 'artwork included' : 'no artwork',
  ];
  return `Read from the file: ${facts.filter(Boolean).join(' · ')}`;
}

/**
 * Choosing a mix file reads its tags (the first megabyte goes to the preview route), fills in the
 * form's title, artist and genre left empty (the genre unless the admin chose one) and says what it found.
 */
export function useTagPreview(formRef: RefObject<HTMLFormElement | null>, genreTouched: RefObject<boolean>) {
  const [found, setFound] = useState<string | null>(null);
  const preview = useRef<AbortController | null>(null);
  useEffect(() => () => preview.current?.abort(), []);

  async function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.currentTarget.files?.[0];
    const form = formRef.current;
    setFound(null);
    preview.current?.abort();
    if (!file || !form) return;
    const controller = new AbortController();
    preview.current = controller;
    try {
      const tags = await previewMixTags(file, controller.signal);
      if (controller.signal.aborted) return;
      const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
      for (const name of ['title', 'artist'] as const) {
        const input = field(name);
        const value = tags[name];
        if (input && !input.value.trim() && value) input.value = value.slice(0, 200);
      }
      const genre = knownGenre(tags.genre);
      const genreInput = field('genre');
      if (genre && genreInput && !genreTouched.current) genreInput.value = genre;
      setFound(describeTags(tags));
    } catch (err) {
      if (controller.signal.aborted) return;
      setFound(errorMessage(err, 'The file could not be read'));
    }
  }

  return { found, clearFound: () => setFound(null), onFile };
}
