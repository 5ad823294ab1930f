import { randomUUID } from 'node:crypto';
import { z } from 'zod';

/** Postgres NOTIFY channel on which each instance says which channels its title readers are connected to. */
export const ICY_READERS_CHANNEL = 'icy_readers';

const announcementSchema = z.object({ i: z.string().max(64), c: z.array(z.string().max(64)).max(100) });

/**
 * Where DHR's in-band title readers (icy-titles.ts) are connected, on this instance and, from their
 * announcements, on the others. Every instance holds its own reader on each mount and Icecast counts
 * each one as a listener: a status read subtracts `readersOn(channel)` so the figures count people.
 * An instance announces on every change and on every status poll; one not heard for `maxAgeMs`
 * (it stopped without a word) no longer counts.
 */
export class ReaderPresence {
  private readonly id = randomUUID();
  private readonly own = new Set<string>();
  private readonly peers = new Map<string, { channels: Set<string>; at: number }>();

  constructor(private readonly announce: (payload: string) => Promise<void>) {}

  /** This instance's reader of `channel` connected or went away; announced when it changes anything. */
  async set(channel: string, connected: boolean): Promise<void> {
    if (connected === this.own.has(channel)) return;
    if (connected) this.own.add(channel);
    else this.own.delete(channel);
    await this.announce(this.payload());
  }

  /** Whether this instance's reader of `channel` is connected. */
  has(channel: string): boolean {
    return this.own.has(channel);
  }

  /** Repeats this instance's announcement (with each status poll) while it holds any reader. */
  async heartbeat(): Promise<void> {
    if (this.own.size > 0) await this.announce(this.payload());
  }

  /** Another instance's announcement (our own, coming back through NOTIFY, is ignored). */
  hear(payload: string, now = Date.now()): void {
    let parsed: z.infer<typeof announcementSchema>;
    try {
      parsed = announcementSchema.parse(JSON.parse(payload));
    } catch {
      return;
    }
    if (parsed.i === this.id) return;
    if (parsed.c.length === 0) this.peers.delete(parsed.i);
    else this.peers.set(parsed.i, { channels: new Set(parsed.c), at: now });
  }

  /** Title readers connected to `channel`'s mount across instances (this one's, and others heard within `maxAgeMs`). */
  readersOn(channel: string, maxAgeMs: number, now = Date.now()): number {
    let n = this.own.has(channel) ? 1 : 0;
    for (const [id, peer] of this.peers) {
      if (peer.at < now - maxAgeMs) this.peers.delete(id);
      else if (peer.channels.has(channel)) n += 1;
    }
    return n;
  }

  private payload(): string {
    return JSON.stringify({ i: this.id, c: [...this.own] });
  }
}
