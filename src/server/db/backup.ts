import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import { DHR_APPLICATION_NAME, migrationsFolder, pgliteStartParams } from './client';
import { acquireDirLock } from './dir-lock';
import { atLowestPriority, lowestPriorityCommand } from '../lib/low-priority';

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
  // A backup runs beside the server: its compression takes only what listeners' requests leave.
  const command = lowestPriorityCommand('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', '--file', file, ...args]);
  const dump = run(command.bin, command.args, { env, maxBuffer: 16 * 1024 * 1024 });
  if (dump.child.pid !== undefined) atLowestPriority(dump.child.pid);
  await dump;
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

/**
 * Other sessions of a DHR server (application_name DHR_APPLICATION_NAME, set by db/client.ts) on the
 * database at `url`. A restore there would swap the tables under a running server: it refuses.
 */
export async function dhrSessions(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url, application_name: 'dhr-restore' });
  await client.connect();
  try {
    const res = await client.query<{ n: string }>(
      'select count(*) as n from pg_stat_activity where datname = current_database() and application_name = $1 and pid <> pg_backend_pid()',
      [DHR_APPLICATION_NAME],
    );
    return Number(res.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** Rows copied per statement when moving PGlite into PostgreSQL (one JSON parameter each). */
const COPY_BATCH_ROWS = 1000;
const MIGRATIONS_SCHEMA = 'drizzle';
const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

interface TableRef {
  schema: string;
  table: string;
}
const qualified = (t: TableRef) => `${quoteIdent(t.schema)}.${quoteIdent(t.table)}`;
const TABLES_SQL = `select n.nspname as schema, c.relname as "table" from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p') and n.nspname in ('public', '${MIGRATIONS_SCHEMA}') order by 1, 2`;

/**
 * Moves the PGlite database of a backup (a dump of dumpPglite) into the empty PostgreSQL database at
 * `url`, in one transaction: a failure leaves the target as it was. The dump is loaded into a
 * temporary PGlite in `workDir` and brought to this DHR's migrations (a backup made by a newer DHR,
 * whose migrations this one does not know, is refused); the target gets the same migrations and
 * migration history, then every table's rows (foreign keys dropped for the copy and added back, which
 * checks every row) and every sequence's position. Returns the rows per table, checked equal on both
 * sides before the commit.
 */
export async function copyPgliteIntoPostgres(dumpFile: string, workDir: string, url: string): Promise<Record<string, number>> {
  fs.mkdirSync(workDir, { recursive: true, mode: 0o700 });
  const source = new PGlite(workDir, { extensions: { pg_trgm }, startParams: pgliteStartParams, loadDataDir: new Blob([fs.readFileSync(dumpFile)]) });
  const target = new pg.Client({ connectionString: url, application_name: 'dhr-restore' });
  try {
    await source.waitReady;
    const migrations = readMigrationFiles({ migrationsFolder });
    const known = new Set(migrations.map((m) => m.folderMillis));
    const hasHistory = await source.query<{ t: string | null }>(`select to_regclass('${MIGRATIONS_SCHEMA}.__drizzle_migrations')::text as t`);
    if (!hasHistory.rows[0]?.t) throw new Error('the backup holds no DHR database (no migration history)');
    const applied = await source.query<{ created_at: string }>(`select created_at::text from ${MIGRATIONS_SCHEMA}.__drizzle_migrations`);
    if (applied.rows.length === 0) throw new Error('the backup holds no DHR database (no migration history)');
    const unknown = applied.rows.filter((r) => !known.has(Number(r.created_at)));
    if (unknown.length > 0) {
      throw new Error(
        `the backup's database has ${unknown.length} migration(s) this DHR does not know: restore it with the DHR version that made it (or a newer one)`,
      );
    }
    // As a server start would: the backup's database brought to this version's schema.
    await migratePglite(drizzlePglite(source), { migrationsFolder });

    await target.connect();
    await target.query('BEGIN');
    try {
      // drizzle's migrator, statement for statement, inside this transaction.
      await target.query(`CREATE SCHEMA IF NOT EXISTS ${MIGRATIONS_SCHEMA}`);
      await target.query(`CREATE TABLE IF NOT EXISTS ${MIGRATIONS_SCHEMA}.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`);
      for (const m of migrations) for (const stmt of m.sql) if (stmt.trim()) await target.query(stmt);

      const sourceTables = (await source.query<TableRef>(TABLES_SQL)).rows;
      const targetTables = (await target.query<TableRef>(TABLES_SQL)).rows;
      const names = (ts: TableRef[]) => ts.map(qualified).join(', ');
      if (names(sourceTables) !== names(targetTables)) {
        throw new Error(`the tables differ after migrating: backup ${names(sourceTables)}; target ${names(targetTables)}`);
      }
      // Rows the migrations inserted come from the backup instead.
      await target.query(`TRUNCATE ${names(targetTables)}`);
      const foreignKeys = (
        await target.query<{ tbl: string; name: string; def: string }>(
          `select conrelid::regclass::text as tbl, conname as name, pg_get_constraintdef(oid) as def from pg_constraint
           where contype = 'f' and connamespace in (select oid from pg_namespace where nspname in ('public', '${MIGRATIONS_SCHEMA}'))`,
        )
      ).rows;
      for (const fk of foreignKeys) await target.query(`ALTER TABLE ${fk.tbl} DROP CONSTRAINT ${quoteIdent(fk.name)}`);

      const counts: Record<string, number> = {};
      for (const t of sourceTables) {
        const cols = (
          await source.query<{ name: string; identity: string }>(
            `select attname as name, attidentity::text as identity from pg_attribute
             where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`,
            [qualified(t)],
          )
        ).rows;
        const list = cols.map((c) => quoteIdent(c.name)).join(', ');
        const overriding = cols.some((c) => c.identity === 'a') ? 'OVERRIDING SYSTEM VALUE' : '';
        const total = Number((await source.query<{ n: string }>(`select count(*)::text as n from ${qualified(t)}`)).rows[0]?.n ?? 0);
        for (let offset = 0; offset < total; offset += COPY_BATCH_ROWS) {
          const batch = await source.query<{ rows: string }>(
            `select coalesce(json_agg(t), '[]')::text as rows from (select ${list} from ${qualified(t)} order by ctid offset $1 limit $2) t`,
            [offset, COPY_BATCH_ROWS],
          );
          await target.query(
            `INSERT INTO ${qualified(t)} (${list}) ${overriding} SELECT ${list} FROM json_populate_recordset(null::${qualified(t)}, $1::json)`,
            [batch.rows[0]?.rows ?? '[]'],
          );
        }
        const copied = Number((await target.query<{ n: string }>(`select count(*)::text as n from ${qualified(t)}`)).rows[0]?.n ?? 0);
        if (copied !== total) throw new Error(`${t.schema}.${t.table}: ${copied} rows copied of ${total}`);
        counts[`${t.schema}.${t.table}`] = total;
      }
      // Added back: each one checks every copied row.
      for (const fk of foreignKeys) await target.query(`ALTER TABLE ${fk.tbl} ADD CONSTRAINT ${quoteIdent(fk.name)} ${fk.def}`);

      const sequences = (
        await source.query<{ name: string }>(
          `select quote_ident(n.nspname) || '.' || quote_ident(c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where c.relkind = 'S' and n.nspname in ('public', '${MIGRATIONS_SCHEMA}')`,
        )
      ).rows;
      for (const { name } of sequences) {
        const pos = (await source.query<{ last_value: string; is_called: boolean }>(`select last_value::text, is_called from ${name}`)).rows[0];
        if (pos) await target.query('select setval($1::regclass, $2::bigint, $3)', [name, pos.last_value, pos.is_called]);
      }
      await target.query('COMMIT');
      return counts;
    } catch (err) {
      await target.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  } finally {
    await target.end().catch(() => undefined);
    await source.close().catch(() => undefined);
  }
}
