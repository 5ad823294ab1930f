import type { supporterActionReplySchema, ClaimRequestBody } from '../../../../contracts/supporters';
import { apiSend, type ReplyOf } from '../../../lib/http';
import { useLinkMutation } from '../lib/use-link-mutation';

/** Unlinks a payer email; the access it gave ends. */
export const removePaymentClaim = async (body: ClaimRequestBody) =>
  await apiSend<ReplyOf<typeof supporterActionReplySchema>>('POST', '/api/supporters/claims/remove', body);

export const useRemovePaymentClaim = () => useLinkMutation(removePaymentClaim);
