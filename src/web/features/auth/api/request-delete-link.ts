import { useMutation } from '@tanstack/react-query';
import type { MessageReply } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/me/delete-link: mails the signed-in member a link that confirms deleting the account. */
export const requestDeleteLink = () => apiSend<MessageReply>('POST', '/api/me/delete-link');

export function useRequestDeleteLink() {
  return useMutation({ mutationFn: requestDeleteLink });
}
