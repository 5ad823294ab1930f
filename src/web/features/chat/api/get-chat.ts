import { queryOptions, useQuery } from '@tanstack/react-query';
import type { chatHistorySchema } from '../../../../contracts/chat';
import { apiGet, type ReplyOf } from '../../../lib/http';
import { chatKeys } from './keys';

export type ChatHistory = ReplyOf<typeof chatHistorySchema>;

/** GET /api/chat/{channel}/messages: the last messages, oldest first, and what the reader may do. */
export async function getChat(channel: string, signal?: AbortSignal): Promise<ChatHistory> {
  return apiGet<ChatHistory>(`/api/chat/${encodeURIComponent(channel)}/messages`, { signal });
}

// New messages arrive over the live stream: the list is fetched on open and after each reconnect only.
export const chatQueryOptions = (channel: string) =>
  queryOptions({ queryKey: chatKeys.history(channel), queryFn: ({ signal }) => getChat(channel, signal), staleTime: Infinity, retry: false });

export const useChat = (channel: string) => useQuery(chatQueryOptions(channel));
