import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { buildApp } from './src/server/app';
import { loadConfig } from './src/server/config';
import { users } from './src/server/db/schema';
import { createSession, SESSION_COOKIE } from './src/server/lib/sessions';
const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: 'postgres://postgres:postgres@127.0.0.1:5432/srch', SEED_DEMO: 'false' }, { backgroundJobs: false, memoryDb: true });
const app = await buildApp(config, { logger: false });
const [admin] = await app.database.db.insert(users).values({ email: `a-${randomBytes(4).toString('hex')}@example.test`, username: 'a', isAdmin: true }).returning();
const cookie = `${SESSION_COOKIE}=${await createSession(app.database.db, admin!.id)}`;
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const terms = (process.argv[2] ?? 'member12345.,murphy,AOIFE,member123,outlook,zz5nomatch').split(',');
for (const t of terms) {
  const times: number[] = [];
  for (let i = 0; i < 40; i++) {
    const s = performance.now();
    const r = await fetch(`${base}/api/admin/users?search=${encodeURIComponent(t)}&limit=50`, { headers: { cookie } });
    await r.arrayBuffer();
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  console.log(t.padEnd(14), 'p50', times[20]!.toFixed(1), 'p95', times[37]!.toFixed(1));
}
await app.close();
