// The yardstick: a bare node:http server answering a small JSON body, in its own process like DHR.
import http from 'node:http';

const body = JSON.stringify({ status: 'ok' });
const port = Number(process.env.PORT ?? 0);
http
  .createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  })
  .listen(port, '127.0.0.1');
