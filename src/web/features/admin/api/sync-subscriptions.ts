import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SyncResult } from '../../../../contracts/admin';
import { apiSend } from '../../../lib/http';
import { adminKeys } from './keys';

export interface SyncCall {
  /** Preview: the server changes nothing and answers the plan. */
  dryRun?: boolean;
  /** Go ahead although the run ends many members' subscriptions (after the admin saw the preview). */
  confirm?: boolean;
  /** The plan previewed: the run applies nothing if its plan now takes more (409 plan_changed with the new plan). */
  planId?: string;
}

/** POST /api/admin/sync-subscriptions {dryRun?, confirm?, planId?}. */
export async function syncSubscriptions(call: SyncCall = {}): Promise<SyncResult> {
  return apiSend<SyncResult>('POST', '/api/admin/sync-subscriptions', call);
}

export function useSyncSubscriptions() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: syncSubscriptions,
    // Counts and the last-sync line change after a run, successful or not.
    onSettled: (_data, _err, call) => {
      if (!call?.dryRun) void qc.invalidateQueries({ queryKey: adminKeys.all });
    },
  });
}
