import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../../lib/http';

/** Ends every session of a member (a stolen device, a shared account): they must sign in again. */
export function revokeSessions(userId: string): Promise<{ message: string }> {
  return apiSend<{ message: string }>('POST', `/api/admin/users/${encodeURIComponent(userId)}/sessions/revoke`);
}

export const useRevokeSessions = () => useMutation({ mutationFn: revokeSessions });
