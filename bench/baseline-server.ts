// The yardstick: a bare node:http server in its own process like DHR. It answers every GET with one
// fixed answer: `{"status":"ok"}` at first, or whatever a PUT to /__replay sets (status, headers,
// body), so the bench can make it send the very bytes DHR sent for an endpoint and the ratio
// measures the server stack rather than the size of the answer (docs/decisions/0021-memory-answers.md).
import http from 'node:http';

let status = 200;
let body: Buffer = Buffer.from(JSON.stringify({ status: 'ok' }));
let headers: Record<string, string | number> = { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length };

const port = Number(process.env.PORT ?? 0);
http
  .createServer((req, res) => {
    if (req.method === 'PUT' && req.url === '/__replay') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { status: number; headers: Record<string, string>; bodyBase64: string };
        status = answer.status;
        body = Buffer.from(answer.bodyBase64, 'base64');
        headers = { ...answer.headers, 'content-length': body.length };
        res.writeHead(204).end();
      });
      return;
    }
    res.writeHead(status, headers);
    res.end(body);
  })
  .listen(port, '127.0.0.1');
