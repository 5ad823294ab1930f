import { useMutation } from '@tanstack/react-query';
import type { ImageKind, UploadImageResponse } from '../../../../contracts/community';
import { apiUpload, type UploadProgress } from '../../../lib/http';

/** POST /api/users/upload-image, multipart fields type and image; answers imageUrl; `onProgress` follows the upload. */
export async function uploadImage(input: { file: File; type: ImageKind; onProgress?: (progress: UploadProgress) => void }): Promise<string> {
  const form = new FormData();
  form.append('type', input.type);
  form.append('image', input.file);
  return (await apiUpload<UploadImageResponse>('/api/users/upload-image', form, input.onProgress)).imageUrl;
}

export const useUploadImage = () => useMutation({ mutationFn: uploadImage });
