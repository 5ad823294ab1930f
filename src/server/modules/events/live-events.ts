import type { UserRow } from '../../db/schema';
import { SseHub } from './sse-hub';

/**
 * The event kinds a /api/live/events stream carries, each sent by the module that owns it:
 * `now-playing` (radio, NOW_PLAYING_EVENT), `chat` (chat, CHAT_EVENT) and `error` (a refused stream).
 * A member's streams end (no event, the socket closes) when their rights or session change.
 */

/** Names the audiences a new stream of `user` (null: a visitor) joins; another module's events reach only them. */
export type AudienceResolver = (user: UserRow | null) => Promise<readonly string[]>;

/** The frames a new stream is sent first, after `lastId` when it reconnects with Last-Event-ID. */
export type Replay = (lastId: number | undefined) => string;

/**
 * The live event stream every page holds open: one hub of SSE clients, and what the modules that send
 * events on it told it (who hears which audience, what a new stream is sent first). Modules send
 * through `hub`; none of them reaches another module's state through it.
 */
export class LiveEvents {
  readonly hub = new SseHub();
  private readonly resolvers: AudienceResolver[] = [];
  private readonly replays: Replay[] = [];

  /** A module whose events reach only some readers names those readers' audiences here (the chat: the chats the reader may read). */
  addAudiences(resolve: AudienceResolver): void {
    this.resolvers.push(resolve);
  }

  /** A module whose state a new stream needs at once (now playing) gives it here. */
  addReplay(replay: Replay): void {
    this.replays.push(replay);
  }

  /** The audiences of a new stream of `user`; a resolver that fails (the database away) only leaves its audiences out. */
  async audiencesOf(user: UserRow | null): Promise<Set<string>> {
    return new Set((await Promise.all(this.resolvers.map((resolve) => resolve(user).catch(() => [])))).flat());
  }

  /** What a new stream is sent first. */
  replay(lastId: number | undefined): string {
    return this.replays.map((r) => r(lastId)).join('');
  }
}
