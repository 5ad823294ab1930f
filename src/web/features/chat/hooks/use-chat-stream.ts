import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { CHAT_EVENT, CHAT_HISTORY, type ChatEvent, type ChatMessageView } from '../../../../contracts/chat-values';
import { useLiveAudience, useLiveEvent, useLiveEventsConnected } from '../../radio';
import type { ChatHistory } from '../api/get-chat';
import { chatKeys } from '../api/keys';

/** Adds or replaces a message (by id), keeping the list in time order and at most CHAT_HISTORY long. */
export function withMessage(list: readonly ChatMessageView[], message: ChatMessageView): ChatMessageView[] {
  const rest = list.filter((m) => m.id !== message.id);
  rest.push(message);
  rest.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return rest.slice(-CHAT_HISTORY);
}

/**
 * Writes the chat's live events into its query cache: new messages (deduplicated by id) and
 * deletions; a change of the member's own standing reads the chat again. The stream is the player's (one per tab); after a reconnect the list is fetched again,
 * so nothing sent while it was away is missed.
 */
export function useChatStream(channel: string, audienceKey: string | undefined): void {
  const qc = useQueryClient();
  useLiveAudience(audienceKey);
  const onEvent = useCallback(
    (data: string) => {
      let event: ChatEvent;
      try {
        event = JSON.parse(data) as ChatEvent;
      } catch {
        return;
      }
      // The member was muted or banned, or a ban was lifted: the history says how, before they type.
      if (event.kind === 'standing') {
        void qc.invalidateQueries({ queryKey: chatKeys.history(channel) });
        return;
      }
      if (event.channel !== channel) return;
      qc.setQueryData<ChatHistory>(chatKeys.history(channel), (old) => {
        if (!old) return old;
        if (event.kind === 'delete') return { ...old, messages: old.messages.filter((m) => m.id !== event.id) };
        return { ...old, messages: withMessage(old.messages, event.message) };
      });
    },
    [qc, channel],
  );
  useLiveEvent(CHAT_EVENT, onEvent);

  const connected = useLiveEventsConnected();
  const wasConnected = useRef(false);
  useEffect(() => {
    if (connected && wasConnected.current === false) void qc.invalidateQueries({ queryKey: chatKeys.history(channel) });
    wasConnected.current = connected;
  }, [connected, qc, channel]);
}
