// The yardstick of bench/mix-range.ts: bare node:http answering one Range of FILE with
// fs.createReadStream, in its own process like DHR.
import fs from 'node:fs';
import http from 'node:http';

const file = process.env.FILE ?? '';
const size = fs.statSync(file).size;
http
  .createServer((req, res) => {
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    const start = Number(m?.[1] ?? 0);
    const end = Math.min(Number(m?.[2] ?? size - 1), size - 1);
    res.writeHead(m ? 206 : 200, {
      'content-type': 'audio/mpeg',
      'content-length': end - start + 1,
      ...(m ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
      'accept-ranges': 'bytes',
    });
    fs.createReadStream(file, { start, end }).pipe(res);
  })
  .listen(Number(process.env.PORT ?? 0), '127.0.0.1');
