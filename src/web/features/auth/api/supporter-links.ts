import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MessageReply } from '../../../../contracts/auth';
import {
  patreonAuthorizeReplySchema,
  supporterActionReplySchema,
  supporterLinksSchema,
  type ClaimConfirmBody,
  type ClaimRequestBody,
  type PatreonCallbackBody,
  type SupporterActionReply,
  type SupporterLinks,
} from '../../../../contracts/supporters';
import { apiGet, apiSend } from '../../../lib/http';

/** The member's linked platform identities (GET /api/supporters/links). */
export const SUPPORTER_LINKS_KEY = ['/api/supporters/links'] as const;

export async function getSupporterLinks(signal?: AbortSignal): Promise<SupporterLinks> {
  return supporterLinksSchema.parse(await apiGet<unknown>('/api/supporters/links', { signal }));
}

export const supporterLinksQueryOptions = () => queryOptions({ queryKey: SUPPORTER_LINKS_KEY, queryFn: ({ signal }) => getSupporterLinks(signal), staleTime: 30_000 });

export const useSupporterLinks = (enabled = true) => useQuery({ ...supporterLinksQueryOptions(), enabled });

/** A link changed the member's tier: every cached read (permissions, links) is refreshed. */
function useLinkMutation<T>(mutationFn: (body: T) => Promise<SupporterActionReply>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => qc.invalidateQueries() });
}

/** Connect Patreon, step 1: the authorize URL (with the session's state) the browser goes to. */
export const startPatreonConnect = async () =>
  patreonAuthorizeReplySchema.parse(await apiSend<unknown>('POST', '/api/supporters/patreon/authorize')).url;

export const useStartPatreonConnect = () =>
  useMutation({
    mutationFn: startPatreonConnect,
    onSuccess: (url) => window.location.assign(url),
  });

/** Step 2, on the return page: what Patreon appended goes to the server. */
export const finishPatreonConnect = async (body: PatreonCallbackBody) =>
  supporterActionReplySchema.parse(await apiSend<unknown>('POST', '/api/supporters/patreon/callback', body));
export const useFinishPatreonConnect = () => useLinkMutation(finishPatreonConnect);

export const disconnectPatreon = async () => supporterActionReplySchema.parse(await apiSend<unknown>('DELETE', '/api/supporters/patreon'));
export const useDisconnectPatreon = () => useLinkMutation(disconnectPatreon);

/** Claim a Buy Me a Coffee payment: a code goes to the payer email. */
export const requestPaymentClaim = (body: ClaimRequestBody) => apiSend<MessageReply>('POST', '/api/supporters/claims', body);
export const useRequestPaymentClaim = () => useMutation({ mutationFn: requestPaymentClaim });

export const confirmPaymentClaim = async (body: ClaimConfirmBody) =>
  supporterActionReplySchema.parse(await apiSend<unknown>('POST', '/api/supporters/claims/confirm', body));
export const useConfirmPaymentClaim = () => useLinkMutation(confirmPaymentClaim);

export const removePaymentClaim = async (body: ClaimRequestBody) =>
  supporterActionReplySchema.parse(await apiSend<unknown>('POST', '/api/supporters/claims/remove', body));
export const useRemovePaymentClaim = () => useLinkMutation(removePaymentClaim);
