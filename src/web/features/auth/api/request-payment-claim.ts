import { useMutation } from '@tanstack/react-query';
import type { MessageReply } from '../../../../contracts/auth';
import type { ClaimRequestBody } from '../../../../contracts/supporters';
import { apiSend } from '../../../lib/http';

/** Claim a Buy Me a Coffee payment: a code goes to the payer email. */
export const requestPaymentClaim = (body: ClaimRequestBody) => apiSend<MessageReply>('POST', '/api/supporters/claims', body);

export const useRequestPaymentClaim = () => useMutation({ mutationFn: requestPaymentClaim });
