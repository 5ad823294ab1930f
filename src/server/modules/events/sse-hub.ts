import type { ServerResponse } from 'node:http';

/** Heartbeat comment interval (every 25 s keeps proxies from closing idle streams). */
export const HEARTBEAT_MS = 25_000;
/** A client whose socket buffers more than this is not reading; it is dropped rather than growing memory. */
const MAX_BUFFERED_BYTES = 256 * 1024;

/** Batched frames (chat) wait at most this long before they are written. */
const BATCH_MS = 100;

/**
 * The longest a stream stays open. Its audiences (the chats it may read) are fixed when it connects,
 * so a stream must not outlive the rights it was opened with: each one ends within an hour (spread
 * over the last tenth, so readers do not all come back at once) and the browser reconnects at once
 * with Last-Event-ID, missing no title (`framesSince`) and reloading the chat it shows.
 */
export const STREAM_MAX_LIFE_MS = 60 * 60 * 1000;

/**
 * The NOTIFY channel on which the database names a member whose streams must end (triggers of
 * migration 0018): `u:<user id>` when the member's rights change (tier, status, expiry, admin,
 * email, password, deletion), `s:<session hash>` when one session ends (sign-out, revocation, expiry).
 */
export const MEMBER_CHANGED_CHANNEL = 'dhr_member_changed';

/** Which streams a MEMBER_CHANGED_CHANNEL payload ends; null for a payload it does not know. */
export function streamsToEnd(payload: string): { userId: string } | { sessionHash: string } | null {
  if (payload.startsWith('u:') && payload.length > 2) return { userId: payload.slice(2) };
  if (payload.startsWith('s:') && payload.length > 2) return { sessionHash: payload.slice(2) };
  return null;
}

/** How long a client turned away (too many streams) should wait before trying again. */
export const SSE_RETRY_AFTER_S = 30;

export interface SseLimits {
  /** Streams one client address may hold open. */
  perAddress: number;
  /** Streams the hub holds open, all clients together. */
  total: number;
}

const NO_AUDIENCES: ReadonlySet<string> = new Set();

/** Whose session opened a stream: the member's changes and the session's end close it. */
export interface StreamOwner {
  userId: string;
  sessionHash: string;
}

interface Client {
  audiences: ReadonlySet<string>;
  /** The audiences as one key, so a batched write finds the clients that share a chunk. */
  group: string;
  owner: StreamOwner | null;
  /** When the stream ends by itself (STREAM_MAX_LIFE_MS). */
  endsAt: number;
}

/**
 * Bytes shared by every client a write goes to: the frames as UTF-8, and (made on first need) the
 * same bytes as one HTTP/1.1 chunk, for responses sent with chunked transfer encoding (all but HTTP/1.0).
 */
class SseChunk {
  readonly bytes: Buffer;
  private framed: Buffer | undefined;
  constructor(text: string) {
    this.bytes = Buffer.from(text);
  }
  chunked(): Buffer {
    this.framed ??= Buffer.concat([Buffer.from(`${this.bytes.length.toString(16)}\r\n`), this.bytes, Buffer.from('\r\n')]);
    return this.framed;
  }
}

/**
 * Fan-out to Server-Sent Events clients: one serialised frame per change, written to every socket;
 * one shared heartbeat timer (no per-client timers); clients leave the set when their socket closes.
 */
export class SseHub {
  /** Each client with the audiences it belongs to (e.g. the chats it may read), fixed when it connects, and its owner. */
  private readonly clients = new Map<ServerResponse, Client>();
  /** Open streams per client address, so one address cannot take every slot. */
  private readonly perAddress = new Map<string, number>();
  private heartbeat: NodeJS.Timeout | undefined;
  /** Frames waiting for the next batched write (broadcastBatched). */
  private batch: { frame: string; audience: string | undefined }[] = [];
  private batchTimer: NodeJS.Timeout | undefined;
  /** Read when the first client joins (tests shorten it). */
  heartbeatMs = HEARTBEAT_MS;
  limits: SseLimits = { perAddress: 4, total: 2000 };
  /** Read when a client joins (tests shorten it). */
  maxLifeMs = STREAM_MAX_LIFE_MS;

  get size(): number {
    return this.clients.size;
  }

  /** Whether a new stream from `address` fits under the limits. */
  admits(address: string): boolean {
    return this.clients.size < this.limits.total && (this.perAddress.get(address) ?? 0) < this.limits.perAddress;
  }

  add(res: ServerResponse, address: string, audiences: ReadonlySet<string> = NO_AUDIENCES, owner: StreamOwner | null = null): void {
    const endsAt = Date.now() + this.maxLifeMs * (0.9 + 0.1 * Math.random());
    this.clients.set(res, { audiences, group: [...audiences].sort().join('\n'), owner, endsAt });
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    res.on('close', () => {
      this.clients.delete(res);
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(address, left);
      else this.perAddress.delete(address);
      // No clients, no timer: an idle server does no work.
      if (this.clients.size === 0 && this.heartbeat) {
        clearInterval(this.heartbeat);
        this.heartbeat = undefined;
      }
    });
    if (!this.heartbeat) {
      this.heartbeat = setInterval(() => {
        this.endExpired();
        this.broadcastRaw(': heartbeat\n\n');
      }, this.heartbeatMs);
      this.heartbeat.unref();
    }
  }

  /** Ends the streams past their life (checked with each heartbeat). */
  private endExpired(now = Date.now()): void {
    for (const [res, client] of this.clients) if (client.endsAt <= now) this.end(res);
  }

  /**
   * Ends the streams a member's change makes stale: every stream of `userId` (their rights changed:
   * tier, admin, email, password, deletion), or the streams of one ended session. The browser
   * reconnects within its retry time and the new stream hears what the member may hear now.
   */
  endStreamsOf(match: { userId: string } | { sessionHash: string }): number {
    let ended = 0;
    for (const [res, { owner }] of this.clients) {
      if (!owner) continue;
      if ('userId' in match ? owner.userId === match.userId : owner.sessionHash === match.sessionHash) {
        this.end(res);
        ended++;
      }
    }
    return ended;
  }

  private end(res: ServerResponse): void {
    this.clients.delete(res);
    res.end();
  }

  /** Serialises one event once; `data` must be a single line (JSON is). */
  static frame(event: string, data: string, id?: number): string {
    return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${data}\n\n`;
  }

  /** Writes `frame` to every client, or only to those in `audience`, at once. */
  broadcastRaw(frame: string, audience?: string): void {
    const chunk = new SseChunk(frame);
    for (const [res, { audiences }] of this.clients) {
      if (audience !== undefined && !audiences.has(audience)) continue;
      this.writeTo(res, chunk);
    }
  }

  /**
   * Queues `frame` for every client (or those in `audience`) and writes the queue every `BATCH_MS`,
   * each client's frames as one chunk. For busy streams (chat): 50 messages a second to 5,000 readers
   * is 250,000 socket writes a second one by one, 10 times fewer gathered, for at most BATCH_MS more delay.
   */
  broadcastBatched(frame: string, audience?: string): void {
    this.batch.push({ frame, audience });
    this.batchTimer ??= setTimeout(() => this.flushBatch(), BATCH_MS);
  }

  private flushBatch(): void {
    this.batchTimer = undefined;
    const batch = this.batch;
    this.batch = [];
    if (batch.length === 0) return;
    // Clients are grouped by audience set, so each distinct chunk is joined and encoded once, not once per client.
    const chunks = new Map<string, SseChunk | null>();
    for (const [res, { audiences, group }] of this.clients) {
      let chunk = chunks.get(group);
      if (chunk === undefined) {
        const text = batch
          .filter((b) => b.audience === undefined || audiences.has(b.audience))
          .map((b) => b.frame)
          .join('');
        chunk = text ? new SseChunk(text) : null;
        chunks.set(group, chunk);
      }
      if (chunk) this.writeTo(res, chunk);
    }
  }

  /**
   * Writes to one client, dropping it when it is gone or not reading. The bytes go to the socket in
   * one write, framed once per chunk for every client: through `res.write` each client would cost its
   * own chunk framing and a gathered write, which at thousands of readers is most of the server's time.
   */
  private writeTo(res: ServerResponse, chunk: SseChunk): void {
    const socket = res.socket;
    if (res.writableEnded || res.destroyed || !socket || socket.destroyed) {
      this.clients.delete(res);
      return;
    }
    if (socket.writableLength > MAX_BUFFERED_BYTES) {
      this.clients.delete(res);
      res.destroy();
      return;
    }
    socket.write(res.chunkedEncoding ? chunk.chunked() : chunk.bytes);
  }

  /**
   * Ends every stream (server shutdown); EventSource clients reconnect to another instance. Frames
   * still waiting for their batch are written first, so a stopping instance drops none.
   */
  closeAll(): void {
    if (this.batchTimer) clearTimeout(this.batchTimer);
    this.flushBatch();
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    for (const res of this.clients.keys()) res.end();
    this.clients.clear();
  }
}
