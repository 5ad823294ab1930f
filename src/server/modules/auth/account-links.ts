import { TOKEN_FRAGMENT_KEY } from '../../../contracts/auth';
import type { Db } from '../../db/client';
import type { PlatformSubscribers } from './platform-subscribers';

/** What the account services need besides the database: the platforms' records and the site's address for mailed links. */
export interface AccountContext {
  db: Db;
  platformSubscribers: PlatformSubscribers;
  publicUrl: string;
}

/** A mailed link to one of the web app's token pages. The token rides in the fragment: browsers never send it, so no request log holds it. */
export function tokenLink(publicUrl: string, path: string, token: string): string {
  return `${publicUrl}${path}#${TOKEN_FRAGMENT_KEY}=${encodeURIComponent(token)}`;
}
