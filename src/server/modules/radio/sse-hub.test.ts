import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SseHub } from './sse-hub';

/** Just what the hub uses of a response: write, the ended/destroyed flags, the buffered length, close. */
class FakeResponse extends EventEmitter {
  writes: string[] = [];
  writableEnded = false;
  destroyed = false;
  writableLength = 0;
  write(chunk: string) {
    this.writes.push(chunk);
    return true;
  }
  end() {
    this.writableEnded = true;
  }
  destroy() {
    this.destroyed = true;
    this.emit('close');
  }
}

const asResponse = (r: FakeResponse) => r as unknown as ServerResponse;

describe('SseHub batched broadcast', () => {
  afterEach(() => vi.useRealTimers());

  it('gathers a short burst into one write per client, in order, only for clients of that audience', () => {
    vi.useFakeTimers();
    const hub = new SseHub();
    const [free, dhr1, both] = [new FakeResponse(), new FakeResponse(), new FakeResponse()];
    hub.add(asResponse(free), 'a', new Set(['chat:free']));
    hub.add(asResponse(dhr1), 'b', new Set(['chat:dhr1']));
    hub.add(asResponse(both), 'c', new Set(['chat:dhr1', 'chat:free']));
    hub.broadcastBatched(SseHub.frame('chat', '{"n":1}'), 'chat:free');
    hub.broadcastBatched(SseHub.frame('chat', '{"n":2}'), 'chat:dhr1');
    hub.broadcastBatched(SseHub.frame('chat', '{"n":3}'), 'chat:free');
    expect(free.writes).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(free.writes).toEqual([SseHub.frame('chat', '{"n":1}') + SseHub.frame('chat', '{"n":3}')]);
    expect(dhr1.writes).toEqual([SseHub.frame('chat', '{"n":2}')]);
    expect(both.writes).toEqual([SseHub.frame('chat', '{"n":1}') + SseHub.frame('chat', '{"n":2}') + SseHub.frame('chat', '{"n":3}')]);
    // Nothing is written twice.
    vi.advanceTimersByTime(1000);
    expect(both.writes).toHaveLength(1);
    hub.closeAll();
  });

  it('writes unbatched frames at once, and drops a client that stopped reading instead of buffering for it', () => {
    vi.useFakeTimers();
    const hub = new SseHub();
    const [reading, stuck] = [new FakeResponse(), new FakeResponse()];
    hub.add(asResponse(reading), 'a');
    hub.add(asResponse(stuck), 'b');
    hub.broadcastRaw(SseHub.frame('nowplaying', '{}'));
    expect(reading.writes).toHaveLength(1);
    stuck.writableLength = 1024 * 1024;
    hub.broadcastBatched(SseHub.frame('chat', '{}'));
    vi.advanceTimersByTime(100);
    expect(reading.writes).toHaveLength(2);
    expect(stuck.destroyed).toBe(true);
    expect(hub.size).toBe(1);
    hub.closeAll();
  });
});
