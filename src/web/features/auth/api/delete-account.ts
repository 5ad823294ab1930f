import { useMutation } from '@tanstack/react-query';
import type { DeleteAccountBody } from '../../../../contracts/account';
import type { MessageReply } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** DELETE /api/me: confirmed by the current password or by the token of the emailed link. */
export const deleteAccount = (body: DeleteAccountBody) => apiSend<MessageReply>('DELETE', '/api/me', body);

/** Deletes the account; the page then reloads as a visitor (every cached read belonged to the member). */
export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
