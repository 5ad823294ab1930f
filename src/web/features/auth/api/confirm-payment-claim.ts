import { supporterActionReplySchema, type ClaimConfirmBody } from '../../../../contracts/supporters';
import { apiSend } from '../../../lib/http';
import { useLinkMutation } from '../lib/use-link-mutation';

/** The mailed code links the payer email to the member. */
export const confirmPaymentClaim = async (body: ClaimConfirmBody) =>
  supporterActionReplySchema.parse(await apiSend<unknown>('POST', '/api/supporters/claims/confirm', body));

export const useConfirmPaymentClaim = () => useLinkMutation(confirmPaymentClaim);
