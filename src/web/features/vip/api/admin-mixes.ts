import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { MIX_PREVIEW_SLICE_BYTES, MIX_RESUMABLE_MIN_BYTES, MIX_RESUMABLE_PATH } from '../../../../contracts/mix-values';
import type { adminVipMixListSchema, adminVipMixSchema, AdminVipMix, MixDetails, mixTagsSchema, MixTags, UpdateMix } from '../../../../contracts/mixes';
import type { storageStatusSchema, StorageStatus } from '../../../../contracts/admin';
import { ApiError, apiGet, apiSend, apiUpload, type UploadProgress, type ReplyOf } from '../../../lib/http';
import { vipKeys } from './keys';

/** GET /api/admin/vip-mixes: the library with storage links (admins). */
export const adminMixesQueryOptions = () =>
  queryOptions({
    queryKey: vipKeys.adminMixes,
    queryFn: async ({ signal }) => await apiGet<ReplyOf<typeof adminVipMixListSchema>>('/api/admin/vip-mixes', { signal }),
    // While listening copies are being made, their percent moves.
    refetchInterval: (query) => (query.state.data?.some((m) => m.s3Url && (m.rendition.state === 'queued' || m.rendition.state === 'running')) ? 3000 : false),
  });
export const useAdminMixes = () => useQuery(adminMixesQueryOptions());

/** GET /api/admin/storage-status: computed live on each call. */
export const useStorageStatus = () =>
  useQuery({
    queryKey: vipKeys.storageStatus,
    queryFn: async ({ signal }): Promise<StorageStatus> => await apiGet<ReplyOf<typeof storageStatusSchema>>('/api/admin/storage-status', { signal }),
    staleTime: 0,
  });

function useLibraryWrite<A, R>(write: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: () => {
      void client.invalidateQueries({ queryKey: vipKeys.adminMixes });
      void client.invalidateQueries({ queryKey: vipKeys.mixes });
      void client.invalidateQueries({ queryKey: vipKeys.storageStatus });
    },
  });
}

/** PATCH /api/vip-mixes/{id} {s3Url} ('Edit Links'). */
export const useSetMixLink = () =>
  useLibraryWrite(
    async ({ id, s3Url }: { id: string; s3Url: string }) =>
      await apiSend<ReplyOf<typeof adminVipMixSchema>>('PATCH', `/api/vip-mixes/${encodeURIComponent(id)}`, { s3Url }),
  );

/** DELETE /api/admin/vip-mixes/{id}. */
export const useDeleteMix = () => useLibraryWrite(async (id: string) => apiSend<void>('DELETE', `/api/admin/vip-mixes/${encodeURIComponent(id)}`));

/** PATCH /api/admin/vip-mixes/{id}: title, artist, genre, description, duration, hidden. */
export const useUpdateMix = () =>
  useLibraryWrite(
    async ({ id, patch }: { id: string; patch: UpdateMix }) =>
      await apiSend<ReplyOf<typeof adminVipMixSchema>>('PATCH', `/api/admin/vip-mixes/${encodeURIComponent(id)}`, patch),
  );

/** PUT /api/admin/vip-mixes/{id}/artwork (multipart: artwork). */
async function putArtwork({ id, file }: { id: string; file: File }): Promise<AdminVipMix> {
  const form = new FormData();
  form.set('artwork', file);
  return await apiUpload<ReplyOf<typeof adminVipMixSchema>>(`/api/admin/vip-mixes/${encodeURIComponent(id)}/artwork`, form);
}
export const useSetMixArtwork = () => useLibraryWrite(putArtwork);

/** POST /api/admin/vip-mixes/preview with the first megabyte of `file`: the tags the server found. */
export async function previewMixTags(file: File, signal?: AbortSignal): Promise<MixTags> {
  const form = new FormData();
  form.set('size', String(file.size));
  form.set('file', file.slice(0, MIX_PREVIEW_SLICE_BYTES), file.name);
  return await apiUpload<ReplyOf<typeof mixTagsSchema>>('/api/admin/vip-mixes/preview', form, undefined, signal);
}

/** A running upload: its answer, and a way to stop it that leaves nothing stored. */
export interface MixUpload {
  done: Promise<AdminVipMix>;
  cancel: () => void;
  /** Whether a dropped upload can be resumed by choosing the same file again (resumable uploads). */
  resumable: boolean;
}

/**
 * The retry rule tus-js-client applies by default, made visible: a chunk that failed for the network
 * or the server (not a refusal) is tried again while the browser is online.
 */
function worthRetrying(err: Error): boolean {
  const status = (err as { originalResponse?: { getStatus(): number } | null }).originalResponse?.getStatus() ?? 0;
  const refused = status >= 400 && status < 500 && status !== 409 && status !== 423 && status !== 429;
  return !refused && (typeof navigator === 'undefined' || navigator.onLine !== false);
}

/**
 * Uploads a mix: in one multipart request (POST /api/admin/vip-mixes), or resumably (tus, in chunks
 * that are retried and resumed after a dropped connection) above MIX_RESUMABLE_MIN_BYTES. Both end
 * in the same server path. `onProgress` follows the bytes sent.
 */
function startMixUpload(
  details: MixDetails,
  file: File,
  artwork: File | null,
  onProgress: (progress: UploadProgress) => void,
  onConnection: (lost: boolean) => void,
): MixUpload {
  const controller = new AbortController();
  if (file.size <= MIX_RESUMABLE_MIN_BYTES) {
    const form = new FormData();
    for (const [name, value] of Object.entries(details)) form.set(name, value);
    form.set('file', file);
    if (artwork) form.set('artwork', artwork);
    return {
      done: apiUpload<ReplyOf<typeof adminVipMixSchema>>('/api/admin/vip-mixes', form, onProgress, controller.signal),
      cancel: () => controller.abort(),
      resumable: false,
    };
  }
  let cancel = () => controller.abort();
  const done = import('tus-js-client').then(
    ({ Upload }) =>
      new Promise<AdminVipMix>((resolve, reject) => {
        const upload = new Upload(file, {
          endpoint: MIX_RESUMABLE_PATH,
          chunkSize: 16 * 1024 * 1024,
          retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
          metadata: { ...details, filename: file.name },
          removeFingerprintOnSuccess: true,
          onProgress: (loaded, total) => onProgress({ loaded, total }),
          // A chunk that fails is retried (retryDelays); the form says so meanwhile, and clears it at the next chunk.
          onShouldRetry: (err) => {
            const retry = worthRetrying(err);
            if (retry) onConnection(true);
            return retry;
          },
          onChunkComplete: () => onConnection(false),
          onSuccess: ({ lastResponse }) => resolve(JSON.parse(lastResponse.getBody()) as AdminVipMix),
          onError: (err) => reject(tusError(err)),
        });
        cancel = () => {
          reject(new DOMException('The upload was cancelled', 'AbortError'));
          // Terminating drops the bytes the server holds for it.
          upload.abort(true).catch(() => undefined);
        };
        if (controller.signal.aborted) return cancel();
        // A file chosen again after a dropped upload carries on from where the server has it.
        void upload.findPreviousUploads().then((previous) => {
          const last = previous[0];
          if (last) upload.resumeFromPreviousUpload(last);
          upload.start();
        });
      }),
  );
  // The picture goes to the new mix afterwards (a resumable upload carries one file).
  return { done: artwork ? done.then((mix) => putArtwork({ id: mix.id, file: artwork })) : done, cancel: () => cancel(), resumable: true };
}

/** tus's error with the server's own words, read like every other call's (ApiError). */
function tusError(err: Error): Error {
  const res = (err as { originalResponse?: { getStatus(): number; getBody(): string } | null }).originalResponse;
  if (!res) return new TypeError('Failed to fetch');
  let message: string | undefined;
  let code: string | undefined;
  try {
    const body = JSON.parse(res.getBody()) as { message?: string; error?: { code?: string } };
    message = body.message;
    code = body.error?.code;
  } catch {
    message = res.getBody() || undefined;
  }
  return new ApiError(res.getStatus(), '', message, code);
}

/** Starts mix uploads; the library's lists are read again when one ends. */
export function useMixUpload() {
  const client = useQueryClient();
  return useCallback(
    (
      details: MixDetails,
      file: File,
      artwork: File | null,
      onProgress: (progress: UploadProgress) => void,
      onConnection: (lost: boolean) => void,
    ): MixUpload => {
      const upload = startMixUpload(details, file, artwork, onProgress, onConnection);
      const refresh = () => {
        void client.invalidateQueries({ queryKey: vipKeys.adminMixes });
        void client.invalidateQueries({ queryKey: vipKeys.mixes });
        void client.invalidateQueries({ queryKey: vipKeys.storageStatus });
      };
      upload.done.then(refresh, refresh);
      return upload;
    },
    [client],
  );
}
