import { useMutation } from '@tanstack/react-query';
import { uploadImageResponseSchema, type ImageKind } from '../../../../contracts/community';
import { ApiError } from '../../../lib/http';

/** POST /api/users/upload-image, multipart fields image and type; answers imageUrl. */
export async function uploadImage(input: { file: File; type: ImageKind }): Promise<string> {
  const form = new FormData();
  form.append('image', input.file);
  form.append('type', input.type);
  const res = await fetch('/api/users/upload-image', { method: 'POST', credentials: 'same-origin', body: form });
  const body = (await res.json().catch(() => ({}))) as { message?: unknown };
  if (!res.ok) throw new ApiError(res.status, res.statusText, typeof body.message === 'string' ? body.message : undefined, undefined);
  return uploadImageResponseSchema.parse(body).imageUrl;
}

export const useUploadImage = () => useMutation({ mutationFn: uploadImage });
