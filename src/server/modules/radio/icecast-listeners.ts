import { Parser } from 'htmlparser2';
import { callService, FetchError } from '../../lib/outbound-http';

/** Icecast's admin credentials (ICECAST_ADMIN_USER / ICECAST_ADMIN_PASSWORD); no password, no list. */
export interface IcecastAdmin {
  user: string;
  password: string | undefined;
}

/** Icecast's listener list could not be read (no credentials, refused, timed out, not the expected XML). */
export class ListenersUnreadable extends Error {}

/** A listener list answers in a few seconds or not at all: an admission waits on it. */
const LIST_TIMEOUT_MS = 3_000;
/** A mount of thousands of listeners stays well under this. */
const MAX_LIST_BYTES = 8 * 1024 * 1024;

/**
 * The connection ids of the listeners Icecast holds on the mount of `streamUrl` now, read from its
 * admin `listclients` XML (`<icestats><source><listener><ID>8</ID>…`). A mount with no source
 * ("Source does not exist", 400) holds none. Anything else that is not that XML is unreadable: the
 * caller must not guess.
 */
export async function readMountListeners(streamUrl: string, admin: IcecastAdmin): Promise<Set<string>> {
  if (!admin.password) throw new ListenersUnreadable('ICECAST_ADMIN_PASSWORD is not set');
  const stream = new URL(streamUrl);
  const url = new URL('/admin/listclients', stream.origin);
  url.searchParams.set('mount', stream.pathname);
  let body: Buffer;
  try {
    ({ body } = await callService(url.toString(), {
      headers: { authorization: `Basic ${Buffer.from(`${admin.user}:${admin.password}`).toString('base64')}`, accept: 'text/xml' },
      timeoutMs: LIST_TIMEOUT_MS,
      maxBytes: MAX_LIST_BYTES,
    }));
  } catch (err) {
    if (err instanceof FetchError && err.status === 400) return new Set();
    throw new ListenersUnreadable(err instanceof Error ? err.message : String(err));
  }
  return parseListClients(body.toString('utf8'));
}

/** The listener ids of a `listclients` document; throws when it is not one. */
export function parseListClients(xml: string): Set<string> {
  const ids = new Set<string>();
  const path: string[] = [];
  let text = '';
  let sawStats = false;
  const parser = new Parser(
    {
      onopentag(name) {
        path.push(name);
        if (name === 'icestats') sawStats = true;
        text = '';
      },
      ontext(chunk) {
        text += chunk;
      },
      onclosetag(name) {
        if (name === 'ID' && path.at(-2) === 'listener') {
          const id = text.trim();
          if (/^\d{1,20}$/.test(id)) ids.add(id);
        }
        path.pop();
        text = '';
      },
    },
    { xmlMode: true },
  );
  parser.write(xml);
  parser.end();
  if (!sawStats) throw new ListenersUnreadable('the reply is not a listclients document');
  return ids;
}
