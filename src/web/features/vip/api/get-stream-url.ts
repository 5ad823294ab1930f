import type { streamUrlSchema } from '../../../../contracts/mixes';
import { apiGet, type ReplyOf } from '../../../lib/http';

/** GET /api/stream/{mixId}: a signed link, minutes long; the player asks again when it expires. */
export async function getStreamUrl(mixId: string): Promise<string> {
  return (await apiGet<ReplyOf<typeof streamUrlSchema>>(`/api/stream/${encodeURIComponent(mixId)}`)).streamUrl;
}
