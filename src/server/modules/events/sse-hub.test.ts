import { EventEmitter } from 'node:events';
import http, { type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SseHub } from './sse-hub';

/** Just what the hub uses of a response: its socket (write, buffered length), the ended/destroyed flags, close. */
class FakeResponse extends EventEmitter {
  writes: string[] = [];
  writableEnded = false;
  destroyed = false;
  chunkedEncoding = false;
  socket = {
    destroyed: false,
    writableLength: 0,
    write: (chunk: Buffer | string) => {
      this.writes.push(chunk.toString());
      return true;
    },
  };
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
    stuck.socket.writableLength = 1024 * 1024;
    hub.broadcastBatched(SseHub.frame('chat', '{}'));
    vi.advanceTimersByTime(100);
    expect(reading.writes).toHaveLength(2);
    expect(stuck.destroyed).toBe(true);
    expect(hub.size).toBe(1);
    hub.closeAll();
  });
});

describe('SseHub shutdown', () => {
  it('writes the frames still waiting for their batch before it ends the streams', () => {
    vi.useFakeTimers();
    const hub = new SseHub();
    const reader = new FakeResponse();
    hub.add(asResponse(reader), 'a', new Set(['chat:free']));
    hub.broadcastBatched(SseHub.frame('chat', '{"n":1}'), 'chat:free');
    hub.closeAll();
    expect(reader.writes).toEqual([SseHub.frame('chat', '{"n":1}')]);
    expect(reader.writableEnded).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(reader.writes).toHaveLength(1);
    vi.useRealTimers();
  });
});

describe('SseHub on real sockets', () => {
  /** A node:http server whose every request joins the hub, as /api/live/events does after its head. */
  async function serve(hub: SseHub) {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('retry: 3000\n\n');
      hub.add(res, 'a');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, port: (server.address() as AddressInfo).port };
  }
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  };

  it('frames its writes so an HTTP/1.1 client reads every event whole, multi-byte text included, and the stream ends cleanly', async () => {
    const hub = new SseHub();
    const { server, port } = await serve(hub);
    let body = '';
    let ended = false;
    const req = http.get({ port, host: '127.0.0.1', agent: false }, (res) => {
      expect(res.headers['transfer-encoding']).toBe('chunked');
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => (ended = true));
    });
    await until(() => hub.size === 1 && body.length > 0);
    hub.broadcastRaw(SseHub.frame('nowplaying', '{"title":"Café — 夜"}'));
    hub.broadcastBatched(SseHub.frame('chat', '{"n":1}'));
    hub.broadcastBatched(SseHub.frame('chat', '{"n":2}'));
    await until(() => body.includes('{"n":2}'));
    hub.closeAll();
    await until(() => ended);
    req.destroy();
    server.close();
    expect(body).toBe(
      `retry: 3000\n\n${SseHub.frame('nowplaying', '{"title":"Café — 夜"}')}${SseHub.frame('chat', '{"n":1}')}${SseHub.frame('chat', '{"n":2}')}`,
    );
    expect(ended).toBe(true);
  });

  it('writes plain bytes to an HTTP/1.0 client (no chunked encoding there)', async () => {
    const hub = new SseHub();
    const { server, port } = await serve(hub);
    const socket = net.connect(port, '127.0.0.1');
    let raw = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (raw += chunk));
    socket.write('GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n');
    await until(() => hub.size === 1 && raw.includes('retry: 3000'));
    hub.broadcastRaw(SseHub.frame('nowplaying', '{}'));
    await until(() => raw.includes('event: nowplaying'));
    hub.closeAll();
    socket.destroy();
    server.close();
    expect(raw.slice(raw.indexOf('\r\n\r\n') + 4)).toBe(`retry: 3000\n\n${SseHub.frame('nowplaying', '{}')}`);
  });
});
