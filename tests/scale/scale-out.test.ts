/**
 * Two DHR processes on one PostgreSQL behind nginx, configured with deploy/nginx/dhr-locations.conf
 * (the file docs/deploy.md tells operators to include). Needs TEST_DATABASE_URL and nginx; `npm test`
 * says so and skips the suite where either is missing.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort, hasIcecast, startIcecast, type IcecastServer } from '../../scripts/lib/icecast';
import { MIX_RESUMABLE_PATH } from '../../src/contracts/mixes';
import { openDatabase } from '../../src/server/db/client';
import { startPatreonStub } from '../support/platform-stubs';
import { hashPassword } from '../../src/server/modules/auth/passwords';
import { insertAdmin, insertMember } from '../../src/server/modules/members/members-repository';

const root = path.resolve(import.meta.dirname, '../..');
const serverUrl = process.env.TEST_DATABASE_URL;
const nginxBin = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'dhr-scale-'));
const PASSWORD = 'deep-house-scale-1';
const STREAM_AUTH_KEY = 'scale-out-stream-key-0123456789';

/** An Icecast status stand-in whose DHR1 title the test changes. */
let title = 'Kerri Chandler - Rain';
const icecast = http.createServer((_req, res) => {
  const port = (icecast.address() as AddressInfo).port;
  const source = (mount: string) => ({ listenurl: `http://127.0.0.1:${port}/${mount}`, title, listeners: 3, audio_bitrate: 320, server_name: mount });
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ icestats: { source: [source('dhr1'), source('dhr2')] } }));
});

/** A news feed both instances poll: each request's time is kept, to see that one poll fetches it once. */
const feedFetches: number[] = [];
const feed = http.createServer((_req, res) => {
  feedFetches.push(Date.now());
  res.setHeader('content-type', 'application/rss+xml; charset=utf-8');
  res.end(
    '<?xml version="1.0"?><rss version="2.0"><channel><title>Scale</title><link>https://example.test/</link><item><title>One fetch a poll</title><link>https://example.test/a</link></item></channel></rss>',
  );
});
/** The news poll interval the instances run with (NEWS_POLL_MIN), in ms. */
const NEWS_POLL_MS = 3000;
/** The scheduled platform sync's period the instances run with (SYNC_INTERVAL_MIN), in ms. */
const SYNC_MS = 2000;
const PATREON = { token: 'scale-patreon-token', campaignId: 'scale-campaign' };
let patreon: Awaited<ReturnType<typeof startPatreonStub>> | undefined;

interface Instance {
  port: number;
  child: ChildProcess;
  log: string[];
}

const instances: Instance[] = [];
/** A real Icecast fed by ffmpeg, and a second one relaying it that asks DHR about each listener. */
let master: IcecastServer | undefined;
let relay: IcecastServer | undefined;
let proxy: ChildProcess | undefined;
let proxyUrl = '';
let databaseUrl = '';

async function waitFor(url: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

/** The server as `npm start` runs it: the compiled dist/server/main.js under plain node (built in beforeAll). */
async function startInstance(port: number, statusUrl: string, premiumMounts: string): Promise<Instance> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(temp, 'data'),
    PUBLIC_URL: proxyUrl,
    TRUST_PROXY: '127.0.0.1',
    STREAM_AUTH_KEY,
    DHR1_STATUS_URL: statusUrl,
    DHR2_STATUS_URL: statusUrl,
    DHR1_STREAM_URL: `${premiumMounts}/dhr1`,
    DHR2_STREAM_URL: `${premiumMounts}/dhr2`,
    METADATA_POLL_S: '1',
    // The stand-in Icecast serves a status document and no audio: titles come from its status here.
    ICY_TITLES: 'off',
    NEWS_FEEDS: `http://127.0.0.1:${(feed.address() as AddressInfo).port}/feed.xml`,
    NEWS_POLL_MIN: String(NEWS_POLL_MS / 60_000),
    NEWS_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    PATREON_API_URL: patreon?.url ?? '',
    PATREON_ACCESS_TOKEN: PATREON.token,
    PATREON_CAMPAIGN_ID: PATREON.campaignId,
    SYNC_INTERVAL_MIN: String(SYNC_MS / 60_000),
  };
  const child = spawn(process.execPath, [path.join(root, 'dist/server/main.js')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  child.stdout?.on('data', (d: Buffer) => log.push(String(d)));
  child.stderr?.on('data', (d: Buffer) => log.push(String(d)));
  const instance = { port, child, log };
  instances.push(instance);
  await waitFor(`http://127.0.0.1:${port}/api/health`);
  return instance;
}

function nginxConf(proxyPort: number, upstreams: number[]): string {
  const dir = path.join(temp, 'nginx');
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream dhr {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n')}
    keepalive 8;
  }
  # As in deploy/nginx/dhr-site.conf: the upload id and the instances chosen by its hash.
  map $uri $dhr_upload_id {
    "~^/api/admin/vip-mixes/uploads/([0-9a-f]{32})$" $1;
    default $request_id;
  }
  upstream dhr_uploads {
    hash $dhr_upload_id consistent;
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n')}
    keepalive 8;
  }
  server {
    listen 127.0.0.1:${proxyPort};
    # Test only: which instance answered.
    add_header X-DHR-Upstream $upstream_addr always;
    include ${path.join(root, 'deploy/nginx/dhr-locations.conf')};
  }
}
`;
}

/** Reads `now-playing` frames of one SSE connection into `frames` until `stop` is called. */
function listen(url: string): { titles: string[]; trouble: string[]; stop: () => void } {
  const controller = new AbortController();
  const titles: string[] = [];
  /** What went wrong with the connection, for the failure message. */
  const trouble: string[] = [];
  void (async () => {
    try {
      const res = await fetch(url, { signal: controller.signal });
      if (res.status !== 200) trouble.push(`${url} answered ${res.status}`);
      const reader = res.body?.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) return;
        buffer += decoder.decode(chunk.value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').find((l) => l.startsWith('data: '));
          if (frame.includes('event: now-playing') && data) {
            const event = JSON.parse(data.slice(6)) as { channel: string; title: string };
            if (event.channel === 'dhr1') titles.push(event.title);
          }
        }
      }
    } catch (err) {
      if (!controller.signal.aborted) trouble.push(`${url}: ${String(err)}`);
    }
  })();
  return { titles, trouble, stop: () => controller.abort() };
}

const ready = Boolean(serverUrl && nginxBin);

describe.runIf(ready)('two instances behind nginx on one PostgreSQL', { timeout: 120_000 }, () => {
  let adminCookie = '';
  let member = { email: '', id: '' };

  beforeAll(async () => {
    const build = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-stale'], { cwd: root, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`npm run build failed: ${build.stderr}`);
    const name = `dhr_scale_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(serverUrl ?? '');
    u.pathname = `/${name}`;
    databaseUrl = u.toString();

    await new Promise<void>((r) => icecast.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => feed.listen(0, '127.0.0.1', r));
    patreon = await startPatreonStub({ ...PATREON, members: [] });
    const statusUrl = `http://127.0.0.1:${(icecast.address() as AddressInfo).port}/status-json.xsl`;
    const proxyPort = await freePort();
    proxyUrl = `http://127.0.0.1:${proxyPort}`;
    const [portA, portB] = [await freePort(), await freePort()];
    let premiumMounts = statusUrl.replace('/status-json.xsl', '');
    if (hasIcecast) {
      master = await startIcecast();
      await master.startFeed('dhr1');
      relay = await startIcecast({
        relayOf: { port: master.port, mounts: ['dhr1'] },
        listenerAuth: { mounts: ['dhr1'], url: `http://127.0.0.1:${portB}/api/stream-auth/listener`, key: STREAM_AUTH_KEY },
      });
      premiumMounts = relay.origin;
    }
    // The first start migrates; the second then starts on a migrated database (both would also wait on the advisory lock).
    const a = await startInstance(portA, statusUrl, premiumMounts);
    const b = await startInstance(portB, statusUrl, premiumMounts);
    fs.writeFileSync(path.join(temp, 'nginx.conf'), nginxConf(proxyPort, [a.port, b.port]));
    proxy = spawn(nginxBin ?? 'nginx', ['-c', path.join(temp, 'nginx.conf'), '-p', temp], { stdio: 'ignore' });
    await waitFor(`${proxyUrl}/api/health`);

    const database = await openDatabase({ databaseUrl });
    try {
      const passwordHash = await hashPassword(PASSWORD);
      await insertAdmin(database.db, { email: 'boss@example.test', username: 'boss', passwordHash });
      const row = await insertMember(database.db, { email: 'listener@example.test', username: 'listener', passwordHash });
      member = { email: row.email, id: row.id };
      await insertMember(database.db, {
        email: 'dhr1@example.test',
        username: 'dhr1member',
        passwordHash,
        subscriptionTier: 'dhr1',
        subscriptionStatus: 'active',
        subscriptionSource: 'admin',
      });
    } finally {
      await database.close();
    }
    const signIn = await fetch(`${proxyUrl}/api/admin/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'boss@example.test', password: PASSWORD }),
    });
    adminCookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(adminCookie).toContain('=');
  }, 180_000);

  afterAll(async () => {
    proxy?.kill('SIGTERM');
    await relay?.stop();
    await master?.stop();
    for (const i of instances) i.child.kill('SIGKILL');
    await new Promise((r) => icecast.close(r));
    await new Promise((r) => feed.close(r));
    await patreon?.close();
    if (databaseUrl) {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${new URL(databaseUrl).pathname.slice(1)} WITH (FORCE)`);
      await admin.end();
    }
    fs.rmSync(temp, { recursive: true, force: true });
  });

  // A failure in this suite happens in other processes: print what they logged during the test.
  let logMarks: number[] = [];
  beforeEach(() => {
    logMarks = instances.map((i) => i.log.length);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    for (const [n, i] of instances.entries()) {
      const state = await fetch(`http://127.0.0.1:${i.port}/api/nowplaying`).then(
        (r) => r.text(),
        (err: unknown) => String(err),
      );
      console.error(
        `instance ${n} (port ${i.port}) logged:\n${i.log
          .slice(logMarks[n] ?? 0)
          .join('')
          .slice(-8000)}\nnow playing: ${state.slice(0, 2000)}`,
      );
    }
  });

  const direct = (i: number, p: string) => `http://127.0.0.1:${instances[i]?.port ?? 0}${p}`;

  it('a session made on one instance works on the other', async () => {
    const res = await fetch(direct(0, '/api/auth/email-login-secure'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: member.email, password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const me = await fetch(direct(1, '/api/auth/me'), { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(member.email);
  });

  it('a title change reaches the SSE clients of both instances once, through the proxy too', async () => {
    const a = listen(direct(0, '/api/live/events'));
    const b = listen(direct(1, '/api/live/events'));
    const viaProxy = listen(`${proxyUrl}/api/live/events`);
    await new Promise((r) => setTimeout(r, 1500));
    title = 'Larry Heard - Can You Feel It';
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && [a, b, viaProxy].some((l) => !l.titles.includes('Can You Feel It'))) await new Promise((r) => setTimeout(r, 100));
    // A second or two more: a duplicate would arrive by now.
    await new Promise((r) => setTimeout(r, 2500));
    for (const l of [a, b, viaProxy]) {
      l.stop();
      expect(
        l.titles.filter((t) => t === 'Can You Feel It'),
        `titles ${JSON.stringify(l.titles)} ${l.trouble.join('; ')}`,
      ).toHaveLength(1);
    }
  });

  it('the news poll runs once across the two: one fetch of a due source per interval, never two at once', async () => {
    const since = Date.now();
    await new Promise((r) => setTimeout(r, 4 * NEWS_POLL_MS));
    const fetches = feedFetches.filter((t) => t >= since);
    const gaps = fetches.slice(1).map((t, i) => t - (fetches[i] ?? t));
    expect(fetches.length).toBeGreaterThan(0);
    // Two instances polling alone would fetch it twice an interval, at unrelated moments.
    expect(fetches.length).toBeLessThanOrEqual(5);
    expect(Math.min(...gaps, NEWS_POLL_MS)).toBeGreaterThan(NEWS_POLL_MS / 2);
  });

  it('the scheduled platform sync runs once across the two: one listing of the campaign per period', async () => {
    const since = Date.now();
    await new Promise((r) => setTimeout(r, 4 * SYNC_MS));
    const listings = (patreon?.requests ?? []).filter((r) => r.at >= since && r.path.endsWith('/members') && !r.query.get('page[cursor]'));
    const gaps = listings.slice(1).map((r, i) => r.at - (listings[i]?.at ?? r.at));
    expect(listings.length).toBeGreaterThan(0);
    // Each instance alone would list the campaign once a period: eight or so in four periods.
    expect(listings.length).toBeLessThanOrEqual(5);
    expect(Math.min(...gaps, SYNC_MS)).toBeGreaterThan(SYNC_MS / 2);
  });

  it('a shop product added on one instance is served by the other within 1 s', async () => {
    const product = {
      id: 'scale_out_cap',
      name: 'Scale-out cap',
      price: 25,
      category: 'accessories',
      images: [],
      description: '',
      rating: 5,
      reviews: 0,
      inStock: true,
      featured: false,
      tags: [],
      isActive: true,
    };
    await fetch(direct(1, '/api/shop/products')); // the other instance holds the list in memory first
    const created = await fetch(direct(0, '/api/admin/shop/products'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: adminCookie },
      body: JSON.stringify(product),
    });
    expect(created.status).toBe(201);
    const started = Date.now();
    let seen = false;
    while (!seen && Date.now() - started < 1000) {
      seen = ((await (await fetch(direct(1, '/api/shop/products'))).json()) as { id: string }[]).some((p) => p.id === product.id);
      if (!seen) await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen).toBe(true);
  });

  it('per-address sign-in limits are shared: failures through the proxy (round robin) add up across instances', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${proxyUrl}/api/auth/email-login-secure`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
        body: JSON.stringify({ email: 'nobody-here@example.test', password: 'wrong-password-1' }),
      });
      statuses.push(res.status);
    }
    // 10 failures per email and network in 15 minutes (lib/rate-limit.ts), whichever instance counted them.
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it.runIf(hasIcecast)('an Icecast relay with URL listener authentication pointing at DHR admits a member with a token and refuses a visitor', async () => {
    const origin = relay?.origin ?? '';
    // The relay has pulled the mount from the master.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !(await (await fetch(`${origin}/status-json.xsl`)).text()).includes('/dhr1')) await new Promise((r) => setTimeout(r, 250));
    const signIn = await fetch(`${proxyUrl}/api/auth/email-login-secure`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'dhr1@example.test', password: PASSWORD }),
    });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const ticket = (await (await fetch(`${proxyUrl}/api/channels/dhr1/stream`, { headers: { cookie } })).json()) as { url: string };
    expect(ticket.url.startsWith(`${origin}/dhr1?token=`)).toBe(true);

    const listening = new AbortController();
    const member = await fetch(ticket.url, { signal: listening.signal });
    expect(member.status).toBe(200);
    expect(member.headers.get('content-type')).toContain('audio/mpeg');
    const first = await member.body?.getReader().read();
    expect(first?.value?.byteLength ?? 0).toBeGreaterThan(0);
    listening.abort();

    const visitor = await fetch(`${origin}/dhr1`);
    expect([401, 403]).toContain(visitor.status);
    await visitor.body?.cancel();
    const forged = await fetch(`${origin}/dhr1?token=not-a-token`);
    expect([401, 403]).toContain(forged.status);
    await forged.body?.cancel();
  });

  it('a resumable mix upload behind round robin: every request of it reaches the instance that stages it, the rest alternate; the mix is made', async () => {
    const file = path.join(temp, 'resumable.mp3');
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=330:duration=20',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '128k',
      file,
    ]);
    const bytes = fs.readFileSync(file);
    const tus = { 'tus-resumable': '1.0.0', cookie: adminCookie };
    const meta = Object.entries({ title: 'Round Robin Mix', artist: 'Two Instances', genre: 'deep house', description: '', filename: 'rr.mp3' })
      .map(([k, v]) => (v ? `${k} ${Buffer.from(v).toString('base64')}` : k))
      .join(',');
    const created = await fetch(`${proxyUrl}${MIX_RESUMABLE_PATH}`, {
      method: 'POST',
      headers: { ...tus, 'upload-length': String(bytes.length), 'upload-metadata': meta },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const stager = created.headers.get('x-dhr-upstream');
    const url = created.headers.get('location') ?? '';
    expect(url).toMatch(/\/[a-f0-9]{32}$/);
    const others = new Set<string | null>();
    const uploads = new Set<string | null>([stager]);
    const size = Math.ceil(bytes.length / 4);
    let last: Response | undefined;
    for (let offset = 0; offset < bytes.length; offset += size) {
      // Between the chunks, round robin sends the other requests to both instances.
      for (let k = 0; k < 2; k++) others.add((await fetch(`${proxyUrl}/api/health`)).headers.get('x-dhr-upstream'));
      const head = await fetch(`${proxyUrl}${url}`, { method: 'HEAD', headers: tus });
      expect(head.status).toBe(200);
      expect(Number(head.headers.get('upload-offset'))).toBe(offset);
      uploads.add(head.headers.get('x-dhr-upstream'));
      last = await fetch(`${proxyUrl}${url}`, {
        method: 'PATCH',
        headers: { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: new Uint8Array(bytes.subarray(offset, offset + size)),
      });
      expect(last.status).toBe(offset + size >= bytes.length ? 200 : 204);
      uploads.add(last.headers.get('x-dhr-upstream'));
    }
    expect(others.size).toBe(2);
    expect([...uploads]).toEqual([stager]);
    // Uploads are spread over both instances by their id, each one staying on its own.
    const stagers = new Set<string | null>();
    for (let n = 0; n < 12; n++) {
      const c = await fetch(`${proxyUrl}${MIX_RESUMABLE_PATH}`, {
        method: 'POST',
        headers: { ...tus, 'upload-length': String(bytes.length), 'upload-metadata': meta },
      });
      expect(c.status).toBe(201);
      const at = c.headers.get('x-dhr-upstream');
      stagers.add(at);
      const u = c.headers.get('location') ?? '';
      const head = await fetch(`${proxyUrl}${u}`, { method: 'HEAD', headers: tus });
      expect(head.headers.get('x-dhr-upstream')).toBe(at);
      const del = await fetch(`${proxyUrl}${u}`, { method: 'DELETE', headers: tus });
      expect(del.status).toBe(204);
      expect(del.headers.get('x-dhr-upstream')).toBe(at);
    }
    expect(stagers.size).toBe(2);
    const mix = (await last?.json()) as { id: string; fileSize: number };
    expect(mix.fileSize).toBe(bytes.length);
    // The mix is there for both instances (the list is dropped on each by NOTIFY).
    for (const i of [0, 1]) {
      const deadline = Date.now() + 5000;
      let ids: string[] = [];
      while (Date.now() < deadline) {
        ids = ((await (await fetch(direct(i, '/api/vip-mixes'))).json()) as { id: string }[]).map((m) => m.id);
        if (ids.includes(mix.id)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(ids, `instance ${i}`).toContain(mix.id);
    }
  });

  it('kill -9 of an instance in the middle of a 10,000-row import leaves all of it or none; the proxy keeps answering', async () => {
    const header = 'email,firstName,lastName,subscriptionTier,subscriptionStatus,subscriptionExpiry,pledgeAmount,source';
    const csvContent = [header, ...Array.from({ length: 10_000 }, (_, i) => `killed${i}@example.test,Kill,Test${i},DHR1,active,2027-01-31,3,admin`)].join('\n');
    const victim = instances[0];
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    /** Backends of this database inside a transaction that has written (it holds a transaction id). */
    const writing = async () =>
      Number(
        (await client.query<{ n: string }>('select count(*) as n from pg_stat_activity where datname = current_database() and backend_xid is not null')).rows[0]
          ?.n,
      );
    try {
      const importing = fetch(direct(0, '/api/admin/bulk-import'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: adminCookie },
        body: JSON.stringify({ csvContent, confirm: true }),
      }).catch(() => null);
      // Killed while the import's transaction has written and not committed.
      // The count seen is kept: asked again, the import's short transaction may have committed meanwhile.
      const deadline = Date.now() + 20_000;
      let seen = 0;
      while (Date.now() < deadline && (seen = await writing()) === 0) await new Promise((r) => setTimeout(r, 5));
      expect(seen).toBeGreaterThan(0);
      victim?.child.kill('SIGKILL');
      expect(await importing).toBeNull();
      // PostgreSQL rolls the transaction back when it sees the client's socket close.
      for (let i = 0; i < 100 && (await writing()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
      const n = Number((await client.query<{ n: string }>("select count(*) as n from users where email like 'killed%'")).rows[0]?.n);
      expect([0, 10_000]).toContain(n);
    } finally {
      await client.end();
    }
    for (let i = 0; i < 6; i++) expect((await fetch(`${proxyUrl}/api/health`)).status).toBe(200);
  });
});

// nginx -t: the shipped site file parses (with its include) wherever nginx is installed.
describe.runIf(Boolean(nginxBin))('deploy/nginx/dhr-site.conf', () => {
  it('is accepted by nginx -t (certificate paths aside)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dhr-nginx-t-'));
    const site = fs
      .readFileSync(path.join(root, 'deploy/nginx/dhr-site.conf'), 'utf8')
      .replace(/^\s*ssl_certificate(_key)?\s.*$/gm, '')
      .replace(/^\s*listen \[::\].*$/gm, '')
      .replace('listen 443 ssl http2;', 'listen 127.0.0.1:18443;')
      .replace('listen 80;', 'listen 127.0.0.1:18080;')
      .replaceAll('/opt/dhr/deploy/nginx/', `${path.join(root, 'deploy/nginx')}/`);
    fs.writeFileSync(path.join(dir, 'site.conf'), site);
    fs.writeFileSync(path.join(dir, 'nginx.conf'), `pid ${dir}/nginx.pid; error_log ${dir}/error.log; events {} http { include ${dir}/site.conf; }`);
    const r = spawnSync(nginxBin ?? 'nginx', ['-t', '-c', path.join(dir, 'nginx.conf'), '-p', dir], { encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(r.stderr).toContain('syntax is ok');
  });

  it("serves the Icecast mounts over https, unbuffered, and keeps Icecast's admin pages out", () => {
    const site = fs.readFileSync(path.join(root, 'deploy/nginx/dhr-site.conf'), 'utf8');
    // The streams' locations are included in the https server block (the one with the certificate), not the port-80 redirect.
    const https = site.slice(site.indexOf('listen 443'));
    expect(https).toContain('include /opt/dhr/deploy/nginx/dhr-streams.conf;');
    expect(https.indexOf('dhr-streams.conf')).toBeLessThan(https.indexOf('dhr-locations.conf'));
    const streams = fs.readFileSync(path.join(root, 'deploy/nginx/dhr-streams.conf'), 'utf8');
    const block = streams.slice(streams.indexOf('location ^~ /stream/ {'));
    for (const line of ['proxy_pass http://icecast/;', 'proxy_buffering off;', 'proxy_read_timeout 24h;']) expect(block).toContain(line);
    expect(streams).toMatch(/location \^~ \/stream\/admin \{\s*return 404;/);
  });
});
