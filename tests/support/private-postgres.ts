import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A PostgreSQL server of the test's own (initdb in a temp dir, its own port and socket dir), for tests
 * that stop and restart the database: the shared cluster other test files use is never touched.
 */

/** The directory holding initdb and pg_ctl: PG_BIN, else the newest /usr/lib/postgresql/<n>/bin. */
export function findPostgresBin(): string | undefined {
  const candidates = [process.env.PG_BIN];
  const root = '/usr/lib/postgresql';
  if (fs.existsSync(root)) {
    const versions = fs
      .readdirSync(root)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => path.join(root, v, 'bin')));
  }
  return candidates.find((dir): dir is string => !!dir && fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl')));
}

/** What installs the binaries, for the skip note. */
export const POSTGRES_INSTALL_HINT = 'PostgreSQL server binaries (initdb, pg_ctl): apt-get install -y postgresql, or set PG_BIN';

export interface PrivatePostgres {
  url: string;
  /** Stops the server; `immediate` is a crash (no checkpoint), so recovery must replay the WAL. */
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  /** Stops the server if running and deletes its directory. */
  destroy(): void;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startPrivatePostgres(bin: string): Promise<PrivatePostgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dhr-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  // PostgreSQL refuses to run as root: as root, its commands run as the postgres user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    fs.chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) => {
    const argv = [path.join(bin, tool), ...args];
    if (asRoot) execFileSync('su', ['postgres', '-c', argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')], { stdio: 'pipe' });
    else execFileSync(argv[0] ?? '', argv.slice(1), { stdio: 'pipe' });
  };
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on`;
  let running = false;
  const start = () => {
    run('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', serverOptions, '-w', '-t', '60', 'start']);
    running = true;
  };
  const stop = (mode: 'fast' | 'immediate' = 'fast') => {
    run('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
    running = false;
  };
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    destroy() {
      if (running) {
        try {
          stop('immediate');
        } catch {
          // already gone
        }
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
