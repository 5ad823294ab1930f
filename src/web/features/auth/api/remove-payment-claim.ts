import { supporterActionReplySchema, type ClaimRequestBody } from '../../../../contracts/supporters';
import { apiSend } from '../../../lib/http';
import { useLinkMutation } from '../lib/use-link-mutation';

/** Unlinks a payer email; the access it gave ends. */
export const removePaymentClaim = async (body: ClaimRequestBody) =>
  supporterActionReplySchema.parse(await apiSend<unknown>('POST', '/api/supporters/claims/remove', body));

export const useRemovePaymentClaim = () => useLinkMutation(removePaymentClaim);
