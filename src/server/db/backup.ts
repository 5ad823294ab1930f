import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { pgliteStartParams } from './client';
import { acquireDirLock } from './dir-lock';

const run = promisify(execFile);

/** The lock file the server holds beside its PGlite directory (db/client.ts): a backup or restore takes it too. */
const lockFor = (dir: string) => path.join(dir, '..', 'db.lock');

/** Whether `dir` holds a PGlite database (PG_VERSION appears once initialised). */
export function pgliteExists(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'PG_VERSION'));
}

/**
 * Writes the PGlite database in `dir` as a gzipped tar of its data directory. PGlite serves one process:
 * while DHR runs on this DATA_DIR the lock refuses (DatabaseLockedError), so the copy is always consistent.
 */
export async function dumpPglite(dir: string, file: string): Promise<void> {
  const lock = acquireDirLock(lockFor(dir), dir);
  try {
    const db = new PGlite(dir, { extensions: { pg_trgm }, startParams: pgliteStartParams });
    try {
      await db.waitReady;
      const blob = await db.dumpDataDir('gzip');
      fs.writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
    } finally {
      await db.close();
    }
  } finally {
    lock.release();
  }
}

/** The lock a restore holds for its whole run (the same file DHR holds while it runs on `dir`). */
export function lockPgliteDir(dir: string) {
  return acquireDirLock(lockFor(dir), dir);
}

/**
 * Loads a dump of dumpPglite into the new directory `dir` and opens it: it must start and hold DHR's
 * tables and migration history, or this throws (the caller then removes `dir`). Takes no lock: the
 * caller holds lockPgliteDir of the directory it will replace.
 */
export async function loadPglite(dir: string, file: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const db = new PGlite(dir, { extensions: { pg_trgm }, startParams: pgliteStartParams, loadDataDir: new Blob([fs.readFileSync(file)]) });
  try {
    await db.waitReady;
    const users = await db.query<{ t: string | null }>("select to_regclass('public.users')::text as t");
    const migrations = await db.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
    if (!users.rows[0]?.t || !migrations.rows[0]?.n) throw new Error('the restored database holds no DHR tables');
  } finally {
    await db.close().catch(() => undefined);
  }
}

/** The PostgreSQL tools' connection: the URL as given, passwords through the environment, not argv. */
function pgToolArgs(url: string): { args: string[]; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { args: ['--dbname', u.toString()], env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** pg_dump in its custom format (compressed, restorable table by table), without owners or grants. */
export async function dumpPostgres(url: string, file: string): Promise<void> {
  const { args, env } = pgToolArgs(url);
  await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', '--file', file, ...args], { env, maxBuffer: 16 * 1024 * 1024 });
}

/** pg_restore into the database at `url`; `clean` drops what the dump holds first (restore --force). */
export async function restorePostgres(url: string, file: string, clean: boolean): Promise<void> {
  const { args, env } = pgToolArgs(url);
  const flags = ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', ...(clean ? ['--clean', '--if-exists'] : [])];
  await run('pg_restore', [...flags, ...args, file], { env, maxBuffer: 16 * 1024 * 1024 });
}

/** The database's tables outside PostgreSQL's own schemas: none means a restore may go there. */
export async function postgresTableCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query<{ n: string }>(
      "select count(*) as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
    );
    return Number(res.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** The PostgreSQL server's version (the manifest records it; pg_restore needs a pg_dump no newer than itself). */
export async function postgresVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ v: string }>('show server_version')).rows[0]?.v ?? 'unknown';
  } finally {
    await client.end();
  }
}
