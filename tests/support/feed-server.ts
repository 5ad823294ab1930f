import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';

/**
 * A real HTTP server on loopback (port 0) serving feeds and pages for the news tests. Each path has a
 * handler; requests are recorded so tests can check the conditional GET headers DHR sent.
 */
export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface FeedServer {
  url(path: string): string;
  origin: string;
  route(path: string, handler: Handler): void;
  requests: { path: string; headers: http.IncomingHttpHeaders }[];
  /** Bytes written by handlers that stream (the 50 MB reply counts what it managed to send). */
  bytesSent: Map<string, number>;
}

export async function startFeedServer(): Promise<FeedServer> {
  const routes = new Map<string, Handler>();
  const requests: FeedServer['requests'] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push({ path, headers: req.headers });
    const handler = routes.get(path);
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    origin,
    url: (path) => `${origin}${path}`,
    route: (path, handler) => routes.set(path, handler),
    requests,
    bytesSent: new Map(),
  };
}

export function rss(items: { title: string; link: string; guid?: string; description?: string; pubDate?: string; extra?: string }[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel><title>Deep Scene</title><link>https://scene.example/</link><description>News</description>
${items
  .map(
    (i) => `<item><title>${i.title}</title><link>${i.link}</link>${i.guid ? `<guid isPermaLink="false">${i.guid}</guid>` : ''}
<pubDate>${i.pubDate ?? new Date().toUTCString()}</pubDate><description><![CDATA[${i.description ?? ''}]]></description>${i.extra ?? ''}</item>`,
  )
  .join('\n')}
</channel></rss>`;
}

export function atom(entries: { title: string; id: string; link: string; summary?: string; updated?: string; extra?: string }[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/"><title>Label Releases</title><id>urn:label</id><updated>${new Date().toISOString()}</updated>
${entries
  .map(
    (
      e,
    ) => `<entry><title type="html">${e.title}</title><id>${e.id}</id><updated>${e.updated ?? new Date().toISOString()}</updated><link rel="alternate" href="${e.link}"/>
<summary type="html">${e.summary ?? ''}</summary>${e.extra ?? ''}</entry>`,
  )
  .join('\n')}
</feed>`;
}
