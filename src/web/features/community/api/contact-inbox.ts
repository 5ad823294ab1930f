import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ContactMessage, ContactMessageList } from '../../../../contracts/community';
import { apiGet, apiSend } from '../../../lib/http';
import { communityKeys } from './keys';

export type InboxStatus = 'open' | 'handled' | 'all';

/** GET /api/admin/contact-messages?status=: priority first, newest first, with the total. */
export async function getContactMessages(status: InboxStatus, signal?: AbortSignal): Promise<ContactMessageList> {
  return apiGet<ContactMessageList>(`/api/admin/contact-messages?status=${status}`, { signal });
}

export const useContactMessages = (status: InboxStatus) =>
  useQuery({ queryKey: communityKeys.contactInbox(status), queryFn: ({ signal }) => getContactMessages(status, signal), staleTime: 0 });

/** PATCH /api/admin/contact-messages/{id}/handled marks it handled; DELETE opens it again. */
export async function setHandled({ id, handled }: { id: string; handled: boolean }): Promise<ContactMessage> {
  return apiSend<ContactMessage>(handled ? 'PATCH' : 'DELETE', `/api/admin/contact-messages/${encodeURIComponent(id)}/handled`);
}

export function useSetHandled() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: setHandled, onSettled: () => qc.invalidateQueries({ queryKey: ['community', 'contact-inbox'] }) });
}
