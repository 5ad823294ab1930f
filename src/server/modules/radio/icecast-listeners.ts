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

/** One listener of a `listclients` document: its connection id, address, User-Agent and seconds connected. */
export interface MountClient {
  id: string;
  ip: string;
  userAgent: string;
  connectedS: number;
}

/** Longest User-Agent kept from a listener list. */
const MAX_AGENT = 300;

/**
 * The connection ids of the listeners Icecast holds on the mount of `streamUrl` now, read from its
 * admin `listclients` XML (`<icestats><source><listener><ID>8</ID>…`). A mount with no source
 * ("Source does not exist", 400) holds none. Anything else that is not that XML is unreadable: the
 * caller must not guess.
 */
export async function readMountListeners(streamUrl: string, admin: IcecastAdmin): Promise<Set<string>> {
  return new Set((await readMountClients(streamUrl, admin)).map((c) => c.id));
}

/** Every listener Icecast holds on the mount of `streamUrl` now, with what the list says of each (as readMountListeners). */
export async function readMountClients(streamUrl: string, admin: IcecastAdmin): Promise<MountClient[]> {
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
    if (err instanceof FetchError && err.status === 400) return [];
    throw new ListenersUnreadable(err instanceof Error ? err.message : String(err));
  }
  return parseListClientDetails(body.toString('utf8'));
}

/** The listener ids of a `listclients` document; throws when it is not one. */
export function parseListClients(xml: string): Set<string> {
  return new Set(parseListClientDetails(xml).map((c) => c.id));
}

/** The listeners of a `listclients` document (those with a numeric ID); throws when it is not one. */
export function parseListClientDetails(xml: string): MountClient[] {
  const clients: MountClient[] = [];
  const path: string[] = [];
  let text = '';
  let sawStats = false;
  let current: Partial<MountClient> = {};
  const fields: Readonly<Record<string, (value: string) => void>> = {
    ID: (v) => {
      if (/^\d{1,20}$/.test(v)) current.id = v;
    },
    IP: (v) => {
      current.ip = v.slice(0, 64);
    },
    UserAgent: (v) => {
      current.userAgent = v.slice(0, MAX_AGENT);
    },
    Connected: (v) => {
      const n = Number(v);
      current.connectedS = Number.isFinite(n) && n >= 0 ? Math.floor(n) : 0;
    },
  };
  const parser = new Parser(
    {
      onopentag(name) {
        path.push(name);
        if (name === 'icestats') sawStats = true;
        if (name === 'listener') current = {};
        text = '';
      },
      ontext(chunk) {
        text += chunk;
      },
      onclosetag(name) {
        const field = fields[name];
        if (field && path.at(-2) === 'listener') field(text.trim());
        if (name === 'listener' && current.id)
          clients.push({ id: current.id, ip: current.ip ?? '', userAgent: current.userAgent ?? '', connectedS: current.connectedS ?? 0 });
        path.pop();
        text = '';
      },
    },
    { xmlMode: true },
  );
  parser.write(xml);
  parser.end();
  if (!sawStats) throw new ListenersUnreadable('the reply is not a listclients document');
  return clients;
}
