import type { supporterActionReplySchema, ClaimConfirmBody } from '../../../../contracts/supporters';
import { apiSend, type ReplyOf } from '../../../lib/http';
import { useLinkMutation } from '../lib/use-link-mutation';

/** The mailed code links the payer email to the member. */
export const confirmPaymentClaim = async (body: ClaimConfirmBody) =>
  await apiSend<ReplyOf<typeof supporterActionReplySchema>>('POST', '/api/supporters/claims/confirm', body);

export const useConfirmPaymentClaim = () => useLinkMutation(confirmPaymentClaim);
