import { streamUrlSchema } from '../../../../contracts/mixes';
import { apiGet } from '../../../lib/http';

/** GET /api/stream/{mixId}: a signed link, minutes long; the player asks again when it expires. */
export async function getStreamUrl(mixId: string): Promise<string> {
  return streamUrlSchema.parse(await apiGet<unknown>(`/api/stream/${encodeURIComponent(mixId)}`)).streamUrl;
}
