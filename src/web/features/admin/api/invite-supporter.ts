import { useMutation } from '@tanstack/react-query';
import type { MessageReply } from '../../../../contracts/auth';
import type { SupporterKey } from '../../../../contracts/supporters';
import { apiSend } from '../../../lib/http';

/** Mails a sign-in link to an unmatched supporter's payer email; the first sign-in creates the account with the tier. */
export const inviteSupporter = (body: SupporterKey) => apiSend<MessageReply>('POST', '/api/admin/supporters/invite', body);

export const useInviteSupporter = () => useMutation({ mutationFn: inviteSupporter });
