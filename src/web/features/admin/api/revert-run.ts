import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { revertRunReplySchema, RevertRunReply } from '../../../../contracts/admin';
import { apiSend, type ReplyOf } from '../../../lib/http';
import { adminKeys } from './keys';

export interface RevertCall {
  runId: number;
  dryRun?: boolean;
  confirm?: boolean;
  /** The preview's planId (confirm counts only with it). */
  planId?: string;
}

/** POST /api/admin/sync-runs/{id}/revert {dryRun?, confirm?}. */
export async function revertRun(call: RevertCall): Promise<RevertRunReply> {
  return await apiSend<ReplyOf<typeof revertRunReplySchema>>('POST', `/api/admin/sync-runs/${call.runId}/revert`, {
    dryRun: call.dryRun === true,
    confirm: call.confirm === true,
    ...(call.planId ? { planId: call.planId } : {}),
  });
}

export function useRevertRun() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: revertRun,
    onSettled: (_d, _e, call) => {
      if (!call.dryRun) void qc.invalidateQueries({ queryKey: adminKeys.all });
    },
  });
}
