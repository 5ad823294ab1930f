import type { streamTicketSchema, StreamTicket } from '../../../../contracts/channels';
import { apiGet, type ReplyOf } from '../../../lib/http';
import type { StreamSource } from '../hooks/use-stream-player';

/** A premium mount's URL with a listener token that expires in minutes: never cached, asked per connection. */
export async function getStreamTicket(channelId: string, signal?: AbortSignal): Promise<StreamTicket> {
  return await apiGet<ReplyOf<typeof streamTicketSchema>>(`/api/channels/${encodeURIComponent(channelId)}/stream`, { signal });
}

/** A channel's premium mount: every connection asks DHR for a fresh token first. */
export function premiumSource(channelId: string): StreamSource {
  return { key: `premium:${channelId}`, resolve: async (signal) => (await getStreamTicket(channelId, signal)).url };
}
