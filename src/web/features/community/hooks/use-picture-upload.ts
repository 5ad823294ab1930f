import { useState, type ChangeEvent } from 'react';
import type { ImageKind } from '../../../../contracts/community';
import { IMAGE_MAX_BYTES, IMAGE_MESSAGES } from '../../../../contracts/images';
import { notify } from '../../../components/ui/toasts';
import { errorMessage } from '../../../lib/http';
import { useUpdateProfile } from '../api/update-profile';
import { useUploadImage } from '../api/upload-image';

/** Uploads a picked profile picture or banner, then sets it on the profile `profileId`. */
export function usePictureUpload(profileId: string) {
  const upload = useUploadImage();
  const update = useUpdateProfile();
  // How far the picture being sent has gone (0..1), null while its size is unknown.
  const [progress, setProgress] = useState<number | null>(null);

  const onPick = (kind: ImageKind) => (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (file.size >= IMAGE_MAX_BYTES) return notify(IMAGE_MESSAGES.tooLarge);
    setProgress(null);
    upload.mutate(
      { file, type: kind, onProgress: (p) => setProgress(p.total ? p.loaded / p.total : null) },
      {
        onSuccess: (imageUrl) => update.mutate({ id: profileId, changes: kind === 'profile' ? { profileImageUrl: imageUrl } : { profileBannerUrl: imageUrl } }),
        onError: (err) => notify(errorMessage(err, IMAGE_MESSAGES.invalid)),
      },
    );
  };

  return { onPick, progress, uploading: upload.isPending, saving: upload.isPending || update.isPending };
}
