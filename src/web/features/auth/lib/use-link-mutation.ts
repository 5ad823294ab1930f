import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SupporterActionReply } from '../../../../contracts/supporters';

/** A change of the member's platform links changes their tier: every cached read (permissions, links) is refreshed. */
export function useLinkMutation<T>(mutationFn: (body: T) => Promise<SupporterActionReply>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => qc.invalidateQueries() });
}
