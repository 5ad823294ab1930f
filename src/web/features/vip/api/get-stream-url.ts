import type { streamUrlSchema } from '../../../../contracts/mixes';
import { apiGet, type ReplyOf } from '../../../lib/http';
import type { MediaLink } from '../../../components/media/media-player';

/** GET /api/stream/{mixId}: a signed link, minutes long, and its lifetime; the player asks for the next one before it expires. */
export async function getStreamUrl(mixId: string): Promise<MediaLink> {
  const reply = await apiGet<ReplyOf<typeof streamUrlSchema>>(`/api/stream/${encodeURIComponent(mixId)}`);
  return { url: reply.streamUrl, expiresInMs: reply.expiresInMs };
}
