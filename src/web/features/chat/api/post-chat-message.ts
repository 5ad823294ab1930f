import { useMutation } from '@tanstack/react-query';
import type { postChatMessageReplySchema } from '../../../../contracts/chat';
import { apiSend, type ReplyOf } from '../../../lib/http';

export type PostChatReply = ReplyOf<typeof postChatMessageReplySchema>;

/** POST /api/chat/{channel}/messages; the author is whoever is signed in. */
export async function postChatMessage(input: { channel: string; text: string }): Promise<PostChatReply> {
  return apiSend<PostChatReply>('POST', `/api/chat/${encodeURIComponent(input.channel)}/messages`, { text: input.text });
}

export const usePostChatMessage = () => useMutation({ mutationFn: postChatMessage });
