import type { ChatMessageView } from '../../../contracts/chat';
import type { ChatMessageRow } from './chat-repository';

export function toChatMessage(row: ChatMessageRow): ChatMessageView {
  return {
    id: row.id,
    channel: row.channel,
    userId: row.userId,
    authorName: row.authorName,
    authorTier: row.authorTier,
    supporter: row.supporter,
    authorIsAdmin: row.authorIsAdmin,
    text: row.text,
    held: row.status === 'held',
    createdAt: row.createdAt.toISOString(),
  };
}
