import type { ServerResponse } from 'node:http';

/** Heartbeat comment interval (every 25 s keeps proxies from closing idle streams). */
export const HEARTBEAT_MS = 25_000;
/** A client whose socket buffers more than this is not reading; it is dropped rather than growing memory. */
const MAX_BUFFERED_BYTES = 256 * 1024;

/** How long a client turned away (too many streams) should wait before trying again. */
export const SSE_RETRY_AFTER_S = 30;

export interface SseLimits {
  /** Streams one client address may hold open. */
  perAddress: number;
  /** Streams the hub holds open, all clients together. */
  total: number;
}

/**
 * Fan-out to Server-Sent Events clients: one serialised frame per change, written to every socket;
 * one shared heartbeat timer (no per-client timers); clients leave the set when their socket closes.
 */
const NO_AUDIENCES: ReadonlySet<string> = new Set();

export class SseHub {
  /** Each client with the audiences it belongs to (e.g. the chats it may read), fixed when it connects. */
  private readonly clients = new Map<ServerResponse, ReadonlySet<string>>();
  /** Open streams per client address, so one address cannot take every slot. */
  private readonly perAddress = new Map<string, number>();
  private heartbeat: NodeJS.Timeout | undefined;
  /** Read when the first client joins (tests shorten it). */
  heartbeatMs = HEARTBEAT_MS;
  limits: SseLimits = { perAddress: 4, total: 2000 };

  get size(): number {
    return this.clients.size;
  }

  /** Whether a new stream from `address` fits under the limits. */
  admits(address: string): boolean {
    return this.clients.size < this.limits.total && (this.perAddress.get(address) ?? 0) < this.limits.perAddress;
  }

  add(res: ServerResponse, address: string, audiences: ReadonlySet<string> = NO_AUDIENCES): void {
    this.clients.set(res, audiences);
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
      this.heartbeat = setInterval(() => this.broadcastRaw(': heartbeat\n\n'), this.heartbeatMs);
      this.heartbeat.unref();
    }
  }

  /** Serialises one event once; `data` must be a single line (JSON is). */
  static frame(event: string, data: string, id?: number): string {
    return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${data}\n\n`;
  }

  /** Writes `frame` to every client, or only to those in `audience`. */
  broadcastRaw(frame: string, audience?: string): void {
    for (const [res, audiences] of this.clients) {
      if (audience !== undefined && !audiences.has(audience)) continue;
      if (res.writableEnded || res.destroyed) {
        this.clients.delete(res);
        continue;
      }
      if (res.writableLength > MAX_BUFFERED_BYTES) {
        this.clients.delete(res);
        res.destroy();
        continue;
      }
      res.write(frame);
    }
  }

  /** Ends every stream (server shutdown); EventSource clients reconnect to another instance. */
  closeAll(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    for (const res of this.clients.keys()) res.end();
    this.clients.clear();
  }
}
