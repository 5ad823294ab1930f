/**
 * A child process of bench/chat-fanout.ts: holds `count` SSE readers of /api/live/events and counts
 * every chat message "bench {seq} {sentAtMs}" each one gets, with its delay (Date.now() is the same
 * clock in both processes). Readers live outside the server's process, as listeners' browsers do.
 */
import http from 'node:http';

const [base = '', countText = '0', totalText = '0'] = process.argv.slice(2);
const count = Number(countText);
const total = Number(totalText);
/** Connections opened at once while the crowd builds up (stays under the listen backlog). */
const CONNECT_BATCH = 250;

const counts = new Uint8Array(count * total);
const histogram = new Uint32Array(60_001);
let deliveries = 0;
const marker = /"text":"bench (\d+) (\d+)"/g;
const sockets: http.ClientRequest[] = [];

function connectOne(reader: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/api/live/events`, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`reader ${reader}: status ${res.statusCode}`));
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        const now = Date.now();
        buffer += chunk;
        const end = buffer.lastIndexOf('\n\n');
        if (end < 0) return;
        const frames = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        for (const m of frames.matchAll(marker)) {
          const seq = Number(m[1]);
          if (seq >= total) continue;
          const at = reader * total + seq;
          counts[at] = Math.min(255, (counts[at] ?? 0) + 1);
          deliveries += 1;
          histogram[Math.min(60_000, Math.max(0, now - Number(m[2])))]! += 1;
        }
      });
      res.once('data', () => resolve());
    });
    req.on('error', reject);
    sockets.push(req);
  });
}

for (let i = 0; i < count; i += CONNECT_BATCH) {
  await Promise.all(Array.from({ length: Math.min(CONNECT_BATCH, count - i) }, (_, k) => connectOne(i + k)));
}
process.send?.({ type: 'ready' });
process.on('message', (msg: { type?: string }) => {
  if (msg.type === 'progress') process.send?.({ type: 'progress', deliveries });
  if (msg.type === 'finish') {
    for (const s of sockets) s.destroy();
    process.send?.({ type: 'result', deliveries, counts: Buffer.from(counts).toString('base64'), histogram: Array.from(histogram) }, () => process.exit(0));
  }
});
