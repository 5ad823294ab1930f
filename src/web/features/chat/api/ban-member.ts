import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../../lib/http';

/** POST /api/admin/users/{id}/ban-comments: the one ban, from comments and chat alike. The moderator is the signed-in admin. */
export const banMember = ({ userId, reason, expiresAt }: { userId: string; reason: string; expiresAt: string | null }) =>
  apiSend<{ message: string }>('POST', `/api/admin/users/${encodeURIComponent(userId)}/ban-comments`, { reason, expiresAt });

export const useBanMember = () => useMutation({ mutationFn: banMember });
