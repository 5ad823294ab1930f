import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageReply } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/auth/logout. */
export const logout = () => apiSend<MessageReply>('POST', '/api/auth/logout');

/** Forgets everything this browser kept about the member. */
function clearLocalState() {
  try {
    localStorage.clear();
    sessionStorage.clear();
  } catch {
    // Storage can be unavailable (privacy modes); there is nothing left to clear then.
  }
}

/**
 * Sign-out: ends the session, clears local and session storage and the query cache and
 * returns to /, even when the call fails. `onFailed` lets a page say 'Sign out failed' first.
 */
export function useSignOut({ onFailed, failedDelayMs = 0 }: { onFailed?: () => void; failedDelayMs?: number } = {}) {
  const qc = useQueryClient();
  const finish = () => {
    clearLocalState();
    qc.clear();
    // A full load of / drops every piece of member state the open page still holds.
    window.location.assign('/');
  };
  return useMutation({
    mutationFn: logout,
    onSuccess: finish,
    onError: () => {
      onFailed?.();
      setTimeout(finish, failedDelayMs);
    },
  });
}
