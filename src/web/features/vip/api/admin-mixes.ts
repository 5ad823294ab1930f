import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { adminVipMixListSchema, adminVipMixSchema, AdminVipMix } from '../../../../contracts/mixes';
import type { storageStatusSchema, StorageStatus } from '../../../../contracts/admin';
import { apiGet, apiSend, apiUpload, type UploadProgress, type ReplyOf } from '../../../lib/http';
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

/** POST /api/admin/vip-mixes (multipart: file, title, artist, genre, description, artwork); `onProgress` follows the upload. */
export const useUploadMix = (onProgress?: (progress: UploadProgress) => void) =>
  useLibraryWrite(async (form: FormData): Promise<AdminVipMix> => await apiUpload<ReplyOf<typeof adminVipMixSchema>>('/api/admin/vip-mixes', form, onProgress));
