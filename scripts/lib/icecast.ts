/**
 * A real local Icecast 2 (Debian `icecast2`) fed by `ffmpeg`, shared by `npm run radio`, the API tests
 * and the browser tests. Everything lives in a temp directory; stop() removes it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const ICECAST_BIN = process.env.ICECAST_BIN ?? '/usr/bin/icecast2';
export const FFMPEG_BIN = process.env.FFMPEG_BIN ?? 'ffmpeg';

function onPath(bin: string): boolean {
  if (bin.includes('/')) return fs.existsSync(bin);
  return (process.env.PATH ?? '').split(path.delimiter).some((d) => d && fs.existsSync(path.join(d, bin)));
}

/** Both programs are installed (tests use it with describe.skipIf). */
export const hasIcecast = onPath(ICECAST_BIN) && onPath(FFMPEG_BIN);
/** What installs them, for skip messages. */
export const ICECAST_INSTALL_HINT = 'apt-get install -y icecast2 ffmpeg';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export interface FeedOptions {
  /** ffmpeg lavfi source graph; a 440 Hz sine by default. */
  source?: string;
  bitrateKbps?: number;
  name?: string;
  genre?: string;
  /** The same programme also encoded for these mounts by the same ffmpeg (e.g. a 128 kbps free mount). */
  alsoAt?: { mount: string; bitrateKbps: number; name?: string }[];
}

/** Icecast's URL listener authentication: it asks `url` (with `key` as Basic auth password) about every listener. */
export interface ListenerAuthOptions {
  mounts: string[];
  url: string;
  key: string;
}

export interface IcecastServer {
  port: number;
  origin: string;
  statusUrl: string;
  dir: string;
  sourcePassword: string;
  adminPassword: string;
  /** http://127.0.0.1:PORT/{mount} */
  streamUrl(mount: string): string;
  /** Connects an ffmpeg source to /{mount} and resolves once Icecast lists the mount. */
  startFeed(mount: string, opts?: FeedOptions): Promise<void>;
  /** Stops the mount's ffmpeg; resolves once Icecast no longer lists it. */
  stopFeed(mount: string): Promise<void>;
  /** Sets the mount's "Artist - Title" through Icecast's admin metadata call. */
  setTitle(mount: string, song: string): Promise<void>;
  /** The parsed status-json.xsl. */
  status(): Promise<unknown>;
  stop(): Promise<void>;
}

export interface StartIcecastOptions {
  port?: number;
  /** Bind address; 127.0.0.1 by default (0.0.0.0 to reach it from other machines). */
  host?: string;
  /** Working directory (config and logs); a fresh temp dir by default and removed on stop. */
  dir?: string;
  maxClients?: number;
  /** Icecast's admin password (user `admin`); random by default. DHR reads the listener lists with it. */
  adminPassword?: string;
  /** Premium mounts whose listeners Icecast checks with DHR. */
  listenerAuth?: ListenerAuthOptions;
  /** Runs as a relay: pulls these mounts from the Icecast on `port` (always on, not on demand). */
  relayOf?: { port: number; mounts: string[] };
  log?: (line: string) => void;
  /**
   * Puts a small HTTP front on `port` that answers the CORS preflight Icecast 2.4 leaves unanswered and
   * passes everything else through, so a web player may ask for in-band titles (`Icy-MetaData: 1`)
   * from another origin. Icecast itself then listens on another local port.
   */
  corsFront?: boolean;
}

/** What a browser needs to read a stream's ICY titles from another origin (docs/radio.md, "Icecast and the web player"). */
export const ICY_CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'icy-metaint, icy-br, icy-name',
} as const;
const ICY_PREFLIGHT_HEADERS = {
  ...ICY_CORS_HEADERS,
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': 'Icy-MetaData, Range',
  'access-control-max-age': '86400',
} as const;

/** The CORS front: OPTIONS answered here, every other request streamed to and from Icecast unchanged. */
async function startCorsFront(port: number, host: string, upstreamPort: number): Promise<http.Server> {
  const front = http.createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, ICY_PREFLIGHT_HEADERS).end();
      return;
    }
    const upstream = http.request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: req.headers }, (reply) => {
      res.writeHead(reply.statusCode ?? 502, { ...reply.headers, ...ICY_CORS_HEADERS });
      reply.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    // A listener who goes away leaves Icecast at once (listener_remove, listener counts).
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(port, host, () => resolve());
  });
  return front;
}

/** The `<mount>` blocks that make Icecast ask DHR (auth.html, "URL") on listener_add and listener_remove. */
export function listenerAuthMounts(auth: ListenerAuthOptions): string {
  return auth.mounts
    .map(
      (m) => `  <mount>
    <mount-name>/${xmlEscape(m)}</mount-name>
    <authentication type="url">
      <option name="listener_add" value="${xmlEscape(auth.url)}"/>
      <option name="listener_remove" value="${xmlEscape(auth.url)}"/>
      <option name="username" value="icecast"/>
      <option name="password" value="${xmlEscape(auth.key)}"/>
      <option name="auth_header" value="icecast-auth-user: 1"/>
      <option name="timelimit_header" value="icecast-auth-timelimit:"/>
    </authentication>
  </mount>
`,
    )
    .join('');
}

/** `<relay>` blocks: this Icecast pulls each mount from the master and serves it under the same name. */
function relayBlocks(master: { port: number; mounts: string[] }): string {
  return master.mounts
    .map(
      (m) => `  <relay>
    <server>127.0.0.1</server>
    <port>${master.port}</port>
    <mount>/${xmlEscape(m)}</mount>
    <local-mount>/${xmlEscape(m)}</local-mount>
    <on-demand>0</on-demand>
    <relay-shoutcast-metadata>1</relay-shoutcast-metadata>
  </relay>
`,
    )
    .join('');
}

function waitForExit(child: ChildProcess, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, ms);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
  });
}

/** A probe's error that waiting longer cannot mend (the process it waits for has exited). */
class GaveUp extends Error {}

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  let lastErr: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      if (err instanceof GaveUp) throw err;
      lastErr = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${lastErr instanceof Error ? `: ${lastErr.message}` : ''}`);
}

function mountsOf(doc: unknown): string[] {
  const source = (doc as { icestats?: { source?: unknown } } | null)?.icestats?.source;
  const list = Array.isArray(source) ? source : source ? [source] : [];
  return list.map((s) => {
    const u = (s as { listenurl?: unknown }).listenurl;
    return typeof u === 'string' ? new URL(u).pathname.slice(1) : '';
  });
}

/**
 * Starts icecast2. A start on a port picked here is tried once more on another port: the port is free
 * when picked but another process on a busy machine can take it before icecast2 binds it.
 */
export async function startIcecast(opts: StartIcecastOptions = {}): Promise<IcecastServer> {
  try {
    return await startIcecastOnce(opts);
  } catch (err) {
    if (!hasIcecast) throw err;
    // A port the caller chose (already in the app's configuration) is tried again as it is: what held
    // it (a short-lived connection, an icecast2 that never answered on a loaded machine) is gone by then.
    opts.log?.(`icecast: starting again after: ${err instanceof Error ? err.message : String(err)}`);
    return startIcecastOnce(opts);
  }
}

async function startIcecastOnce(opts: StartIcecastOptions): Promise<IcecastServer> {
  if (!hasIcecast) throw new Error(`icecast2 and ffmpeg are needed: ${ICECAST_INSTALL_HINT}`);
  const port = opts.port ?? (await freePort());
  const host = opts.host ?? '127.0.0.1';
  // With a CORS front, the front takes `port` and Icecast a private one behind it.
  const icecastPort = opts.corsFront ? await freePort() : port;
  const icecastHost = opts.corsFront ? '127.0.0.1' : host;
  const ownDir = !opts.dir;
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'dhr-icecast-'));
  fs.mkdirSync(path.join(dir, 'log'), { recursive: true });
  const sourcePassword = randomBytes(9).toString('base64url');
  const adminPassword = opts.adminPassword ?? randomBytes(9).toString('base64url');
  // Named in the status document, so the start is known to be answered by this icecast2 and not by
  // another one (a parallel test's) that took the picked port while this one failed to bind it and exited.
  const location = `DHR local radio ${randomBytes(6).toString('hex')}`;
  const asRoot = process.getuid?.() === 0;
  // Icecast refuses to run as root; it drops to nobody, who must be able to write its logs.
  if (asRoot) {
    fs.chmodSync(dir, 0o755);
    fs.chmodSync(path.join(dir, 'log'), 0o777);
  }
  const config = `<icecast>
  <location>${location}</location>
  <admin>radio@dhr.local</admin>
  <limits>
    <clients>${opts.maxClients ?? 200}</clients>
    <sources>16</sources>
    <queue-size>524288</queue-size>
    <client-timeout>30</client-timeout>
    <header-timeout>15</header-timeout>
    <source-timeout>10</source-timeout>
    <burst-on-connect>1</burst-on-connect>
    <burst-size>65535</burst-size>
  </limits>
  <authentication>
    <source-password>${xmlEscape(sourcePassword)}</source-password>
    <relay-password>${xmlEscape(sourcePassword)}</relay-password>
    <admin-user>admin</admin-user>
    <admin-password>${xmlEscape(adminPassword)}</admin-password>
  </authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>${icecastPort}</port><bind-address>${xmlEscape(icecastHost)}</bind-address></listen-socket>
  <http-headers>${Object.entries(ICY_CORS_HEADERS)
    .map(([name, value]) => `<header name="${name}" value="${value}" />`)
    .join('')}</http-headers>
${opts.listenerAuth ? listenerAuthMounts(opts.listenerAuth) : ''}${opts.relayOf ? relayBlocks(opts.relayOf) : ''}  <fileserve>1</fileserve>
  <paths>
    <basedir>/usr/share/icecast2</basedir>
    <logdir>${xmlEscape(path.join(dir, 'log'))}</logdir>
    <webroot>/usr/share/icecast2/web</webroot>
    <adminroot>/usr/share/icecast2/admin</adminroot>
    <alias source="/" destination="/status.xsl"/>
  </paths>
  <logging>
    <accesslog>access.log</accesslog>
    <errorlog>error.log</errorlog>
    <loglevel>2</loglevel>
  </logging>
  <security>
    <chroot>0</chroot>
    ${asRoot ? '<changeowner><user>nobody</user><group>nogroup</group></changeowner>' : ''}
  </security>
</icecast>
`;
  const configPath = path.join(dir, 'icecast.xml');
  fs.writeFileSync(configPath, config, { mode: 0o644 });

  const log = opts.log ?? (() => undefined);
  const icecast = spawn(ICECAST_BIN, ['-c', configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  /** The end of what icecast2 printed: before its own log opens, a failed start is only said here. */
  let printed = '';
  const onOutput = (d: Buffer) => {
    printed = (printed + d.toString()).slice(-1000);
    log(`icecast: ${d.toString().trim()}`);
  };
  icecast.stdout.on('data', onOutput);
  icecast.stderr.on('data', onOutput);
  const origin = `http://127.0.0.1:${port}`;
  // Sources, admin calls and status reads go to Icecast itself, never through the CORS front.
  const direct = `http://127.0.0.1:${icecastPort}`;
  let front: http.Server | undefined;
  const statusUrl = `${direct}/status-json.xsl`;
  const feeds = new Map<string, ChildProcess>();
  // If this process ends without stop() (a killed test worker, a second Ctrl-C), take the children along:
  // on a normal exit through the hook, and on a kill through a watchdog shell that outlives us.
  const killChildren = () => {
    for (const c of feeds.values()) c.kill('SIGKILL');
    icecast.kill('SIGKILL');
  };
  process.on('exit', killChildren);
  if (icecast.pid) {
    // ffmpeg sources exit by themselves once Icecast is gone.
    spawn(
      'sh',
      ['-c', `while kill -0 ${process.pid} 2>/dev/null && kill -0 ${icecast.pid} 2>/dev/null; do sleep 1; done; kill -9 ${icecast.pid} 2>/dev/null`],
      {
        stdio: 'ignore',
        detached: true,
      },
    ).unref();
  }

  async function status(): Promise<unknown> {
    const res = await fetch(statusUrl, { signal: AbortSignal.timeout(2000) });
    if (!res.ok) throw new Error(`status ${res.status}`);
    return JSON.parse(await res.text()) as unknown;
  }

  async function stopFeed(mount: string): Promise<void> {
    const child = feeds.get(mount);
    feeds.delete(mount);
    if (!child) return;
    child.kill('SIGTERM');
    await waitForExit(child, 3000);
    await until(`/${mount} to leave`, 15_000, async () => (mountsOf(await status()).includes(mount) ? undefined : true));
  }

  const server: IcecastServer = {
    port,
    origin,
    statusUrl,
    dir,
    sourcePassword,
    adminPassword,
    streamUrl: (mount) => `${origin}/${mount}`,
    status,
    async startFeed(mount, feed = {}) {
      const outputs = [{ mount, bitrateKbps: feed.bitrateKbps ?? 128, name: feed.name ?? `DHR ${mount}` }, ...(feed.alsoAt ?? [])];
      for (const o of outputs) await stopFeed(o.mount);
      // One input, one encode per output: every mount carries the same programme.
      const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-re', '-f', 'lavfi', '-i', feed.source ?? 'sine=frequency=440:sample_rate=44100'];
      for (const o of outputs) {
        args.push(
          '-map',
          '0:a',
          '-c:a',
          'libmp3lame',
          '-b:a',
          `${o.bitrateKbps}k`,
          '-ar',
          '44100',
          '-ac',
          '2',
          '-content_type',
          'audio/mpeg',
          '-ice_name',
          o.name ?? `DHR ${o.mount}`,
          '-ice_genre',
          feed.genre ?? 'Deep House',
          '-f',
          'mp3',
          `icecast://source:${sourcePassword}@127.0.0.1:${icecastPort}/${o.mount}`,
        );
      }
      // A source can be turned away while Icecast is still settling (or a previous source is
      // leaving the mount); ffmpeg then exits at once. Try again a few times before giving up.
      let lastError = '';
      for (let attempt = 1; attempt <= 4; attempt++) {
        const child = spawn(FFMPEG_BIN, args, { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr?.on('data', (d: Buffer) => {
          stderr += d.toString();
          log(`ffmpeg ${mount}: ${d.toString().trim()}`);
        });
        for (const o of outputs) feeds.set(o.mount, child);
        try {
          await until(`/${mount} to go on air`, 15_000, async () => {
            if (child.exitCode !== null) throw new Error(`ffmpeg for /${mount} exited with ${child.exitCode}`);
            const listed = mountsOf(await status());
            return outputs.every((o) => listed.includes(o.mount)) ? true : undefined;
          });
          return;
        } catch (err) {
          for (const o of outputs) feeds.delete(o.mount);
          child.kill('SIGKILL');
          lastError = `${err instanceof Error ? err.message : String(err)}${stderr ? ` (${stderr.trim().slice(-300)})` : ''}`;
          await new Promise((r) => setTimeout(r, 300 * attempt));
        }
      }
      const gone = icecast.exitCode !== null || icecast.signalCode !== null;
      throw new Error(`${lastError}${gone ? `; icecast2 itself has stopped (${icecast.signalCode ?? `exit ${icecast.exitCode}`})` : ''}`);
    },
    stopFeed,
    async setTitle(mount, song) {
      const q = new URLSearchParams({ mount: `/${mount}`, mode: 'updinfo', song });
      const res = await fetch(`${direct}/admin/metadata?${q.toString()}`, {
        headers: { authorization: `Basic ${Buffer.from(`admin:${adminPassword}`).toString('base64')}` },
        signal: AbortSignal.timeout(5000),
      });
      await res.text();
      if (!res.ok) throw new Error(`Icecast refused the title change (${res.status})`);
    },
    async stop() {
      await Promise.all(
        [...new Set(feeds.values())].map(async (c) => {
          c.kill('SIGTERM');
          await waitForExit(c, 3000);
        }),
      );
      feeds.clear();
      icecast.kill('SIGTERM');
      await waitForExit(icecast, 3000);
      if (front) {
        front.closeAllConnections();
        await new Promise((resolve) => front?.close(resolve));
      }
      process.off('exit', killChildren);
      if (ownDir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };

  try {
    if (opts.corsFront) front = await startCorsFront(port, host, icecastPort);
    await until('icecast2 to answer', 20_000, async () => {
      if (icecast.exitCode !== null) throw new GaveUp(`icecast2 exited with ${icecast.exitCode}`);
      const doc = (await status()) as { icestats?: { location?: unknown } } | null;
      if (doc?.icestats?.location !== location) throw new Error(`another server answers on port ${icecastPort}`);
      return true;
    });
  } catch (err) {
    // What it printed and its own log say why (a port taken, a bad configuration): read before stop() removes the log.
    const errLog = path.join(dir, 'log', 'error.log');
    const why = [printed, fs.existsSync(errLog) ? fs.readFileSync(errLog, 'utf8') : '']
      .map((t) => t.slice(-500).trim())
      .filter(Boolean)
      .join(' | ');
    await server.stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)} on port ${icecastPort}${why ? `; its log: ${why}` : ''}`, { cause: err });
  }
  return server;
}
