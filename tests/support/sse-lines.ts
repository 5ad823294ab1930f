import http from 'node:http';

/**
 * A minimal SSE reader over node:http for API tests: the reply's status and headers, every `data:`
 * line as it arrives (one message per line; DHR sends one-line JSON), and `close()`.
 */
export interface SseLines {
  status: number;
  headers: http.IncomingHttpHeaders;
  data: string[];
  waitFor(what: string, ok: (data: readonly string[]) => boolean, ms?: number): Promise<void>;
  close(): void;
}

export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseLines> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false }, (res) => {
      let buffer = '';
      const lines: SseLines = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        data: [],
        async waitFor(what, ok, ms = 5000) {
          const deadline = Date.now() + ms;
          while (!ok(lines.data)) {
            if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(lines.data).slice(0, 2000)}`);
            await new Promise((r) => setTimeout(r, 25));
          }
        },
        close: () => req.destroy(),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let at: number;
        while ((at = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, at);
          buffer = buffer.slice(at + 1);
          if (line.startsWith('data: ')) lines.data.push(line.slice(6));
        }
      });
      res.on('error', () => undefined);
      resolve(lines);
    });
    req.on('error', reject);
  });
}
