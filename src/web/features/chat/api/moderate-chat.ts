import { useMutation } from '@tanstack/react-query';
import type { chatActionReplySchema, chatMuteReplySchema } from '../../../../contracts/chat';
import { apiSend, type ReplyOf } from '../../../lib/http';

type ActionReply = ReplyOf<typeof chatActionReplySchema>;
type MuteReply = ReplyOf<typeof chatMuteReplySchema>;

/** DELETE /api/admin/chat/messages/{id}: gone for every reader (the live stream carries the deletion). */
export const deleteChatMessage = (id: string) => apiSend<ActionReply>('DELETE', `/api/admin/chat/messages/${encodeURIComponent(id)}`);
/** POST /api/admin/chat/messages/{id}/approve: a held message is shown to everyone. */
export const approveChatMessage = (id: string) => apiSend<ActionReply>('POST', `/api/admin/chat/messages/${encodeURIComponent(id)}/approve`);
/** POST /api/admin/chat/mutes. */
export const muteChatMember = (input: { userId: string; minutes: number }) => apiSend<MuteReply>('POST', '/api/admin/chat/mutes', input);

export const useDeleteChatMessage = () => useMutation({ mutationFn: deleteChatMessage });
export const useApproveChatMessage = () => useMutation({ mutationFn: approveChatMessage });
export const useMuteChatMember = () => useMutation({ mutationFn: muteChatMember });
