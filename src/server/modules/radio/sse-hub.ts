import type { ServerResponse } from 'node:http';

/** Heartbeat comment interval (every 25 s keeps proxies from closing idle streams). */
export const HEARTBEAT_MS = 25_000;
/** A client whose socket buffers more than this is not reading; it is dropped rather than growing memory. */
const MAX_BUFFERED_BYTES = 256 * 1024;

/**
 * Fan-out to Server-Sent Events clients: one serialised frame per change, written to every socket;
 * one shared heartbeat timer (no per-client timers); clients leave the set when their socket closes.
 */
export class SseHub {
  private readonly clients = new Set<ServerResponse>();
  private heartbeat: NodeJS.Timeout | undefined;
  /** Read when the first client joins (tests shorten it). */
  heartbeatMs = HEARTBEAT_MS;

  get size(): number {
    return this.clients.size;
  }

  add(res: ServerResponse): void {
    this.clients.add(res);
    res.on('close', () => {
      this.clients.delete(res);
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

  broadcastRaw(frame: string): void {
    for (const res of this.clients) {
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
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}
