import { useMutation, useQueryClient } from '@tanstack/react-query';
import { syncResultSchema, type SyncResult } from '../../../../contracts/admin';
import { apiSend } from '../../../lib/http';
import { adminKeys } from './keys';

/** POST /api/admin/sync-subscriptions with an empty JSON body. */
export async function syncSubscriptions(): Promise<SyncResult> {
  return syncResultSchema.parse(await apiSend<unknown>('POST', '/api/admin/sync-subscriptions', {}));
}

export function useSyncSubscriptions() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: syncSubscriptions,
    // Counts and the last-sync line change after a run, successful or not.
    onSettled: () => qc.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
