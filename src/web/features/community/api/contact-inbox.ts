import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ContactMessage } from '../../../../contracts/community';
import { apiGet, apiSend } from '../../../lib/http';
import { communityKeys } from './keys';

export type InboxStatus = 'open' | 'handled' | 'all';

/** GET /api/admin/contact-messages?status=: priority first, newest first. */
export async function getContactMessages(status: InboxStatus, signal?: AbortSignal): Promise<ContactMessage[]> {
  return apiGet<ContactMessage[]>(`/api/admin/contact-messages?status=${status}`, { signal });
}

export const useContactMessages = (status: InboxStatus) =>
  useQuery({ queryKey: communityKeys.contactInbox(status), queryFn: ({ signal }) => getContactMessages(status, signal), staleTime: 0 });

/** PATCH /api/admin/contact-messages/{id}/handled. */
export async function markHandled(id: string): Promise<ContactMessage> {
  return apiSend<ContactMessage>('PATCH', `/api/admin/contact-messages/${encodeURIComponent(id)}/handled`);
}

export function useMarkHandled() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: markHandled, onSettled: () => qc.invalidateQueries({ queryKey: ['community', 'contact-inbox'] }) });
}
