import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { heldChangesSchema, heldDecisionReplySchema, HeldChanges } from '../../../../contracts/admin';
import { apiGet, apiSend, type ReplyOf } from '../../../lib/http';
import { adminKeys } from './keys';

/** GET /api/admin/held-changes: losses a scheduled sync kept back for review. */
export async function getHeldChanges(signal?: AbortSignal): Promise<HeldChanges> {
  return await apiGet<ReplyOf<typeof heldChangesSchema>>('/api/admin/held-changes', { signal });
}

export const heldChangesQueryOptions = () => queryOptions({ queryKey: adminKeys.heldChanges, queryFn: ({ signal }) => getHeldChanges(signal) });

export const useHeldChanges = (enabled: boolean) => useQuery({ ...heldChangesQueryOptions(), enabled });

/** POST /api/admin/held-changes/{confirm|dismiss} for all held changes. */
export function useDecideHeld() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (decision: 'confirm' | 'dismiss') =>
      await apiSend<ReplyOf<typeof heldDecisionReplySchema>>('POST', `/api/admin/held-changes/${decision}`, {}),
    onSettled: () => qc.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
