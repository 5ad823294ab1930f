import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import zlib from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/server/app';
import { loadConfig, type Config } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { comments } from '../src/server/db/schema';
import { insertMember } from '../src/server/modules/members/members-repository';

/** `npm run backup` and `npm run restore` run as the operator runs them, on PGlite and (when TEST_DATABASE_URL is set) PostgreSQL. */
const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'dhr-backup-test-'));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

function cli(script: 'backup' | 'restore', args: string[], env: Record<string, string>) {
  const full: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete full.DATABASE_URL;
  const r = spawnSync(tsx, [path.join(root, 'scripts', `${script}.ts`), ...args], { cwd: root, env: full, encoding: 'utf8', timeout: 180_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** An instance with members, a comment, the demo shop and the demo mixes (their audio files in media storage). */
async function populate(config: Config): Promise<void> {
  const app = await buildApp(config, { logger: false });
  try {
    await app.ready();
    const member = await insertMember(app.database.db, { email: 'kept@example.test', username: 'kept', passwordHash: null });
    await app.database.db.insert(comments).values({
      discussionId: 'homepage',
      userId: member.id,
      authorName: 'kept',
      authorTier: 'vip',
      content: 'Rain by Kerri Chandler, what a record',
      status: 'approved',
    });
  } finally {
    await app.close();
  }
}

/** Rows per table (every table DHR has, the migrations' own included). */
async function rowCounts(config: Config): Promise<Record<string, number>> {
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir: path.join(config.dataDir, 'db') });
  try {
    const res = await database.db.execute(sql`select table_schema || '.' || table_name as t from information_schema.tables
      where table_schema not in ('pg_catalog', 'information_schema') and table_type = 'BASE TABLE' order by 1`);
    const out: Record<string, number> = {};
    for (const { t } of (res as unknown as { rows: { t: string }[] }).rows) {
      const [schemaName, table] = t.split('.') as [string, string];
      const n = await database.db.execute(sql`select count(*)::int as n from ${sql.identifier(schemaName)}.${sql.identifier(table)}`);
      out[t] = Number((n as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
    }
    return out;
  } finally {
    await database.close();
  }
}

function mediaChecksums(dataDir: string): Record<string, string> {
  const dir = path.join(dataDir, 'media');
  const out: Record<string, string> = {};
  for (const d of fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[]) {
    if (!d.isFile()) continue;
    const file = path.join(d.parentPath, d.name);
    out[path.relative(dir, file)] = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  }
  return out;
}

const configFor = (dataDir: string, databaseUrl?: string) =>
  loadConfig({ DATA_DIR: dataDir, SEED_DEMO: 'true', LOG_LEVEL: 'silent', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }, { backgroundJobs: false });

async function freshPostgresDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

const serverUrl = process.env.TEST_DATABASE_URL;
const kinds = [
  { kind: 'PGlite', databases: async () => [undefined, undefined] as const },
  ...(serverUrl
    ? [
        {
          kind: 'PostgreSQL',
          databases: async () =>
            [await freshPostgresDatabase(serverUrl, 'dhr_backup_from'), await freshPostgresDatabase(serverUrl, 'dhr_backup_into')] as const,
        },
      ]
    : []),
];

/** Each local media file's permission bits, by path. */
function mediaModes(dataDir: string): Record<string, number> {
  const dir = path.join(dataDir, 'media');
  const files = (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((d) => d.isFile());
  return Object.fromEntries(files.map((d) => [path.relative(dir, path.join(d.parentPath, d.name)), fs.statSync(path.join(d.parentPath, d.name)).mode & 0o777]));
}

describe.each(kinds)('backup and restore ($kind)', { timeout: 300_000 }, ({ kind, databases }) => {
  it('restores a populated instance into a fresh one: the same rows in every table, the same media bytes; a second restore is refused without --force', async () => {
    const [fromUrl, intoUrl] = await databases();
    const from = path.join(temp, `${kind}-from`);
    const into = path.join(temp, `${kind}-into`);
    const archive = path.join(temp, `${kind}.tar.gz`);
    await populate(configFor(from, fromUrl));
    const env = (dataDir: string, url?: string) => ({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...(url ? { DATABASE_URL: url } : {}) });

    // Media as a server with the usual umask leaves them: readable by all (the archive must not be).
    for (const rel of Object.keys(mediaModes(from))) fs.chmodSync(path.join(from, 'media', rel), 0o644);
    const modesBefore = mediaModes(from);
    const backup = cli('backup', ['--out', archive], env(from, fromUrl));
    expect(backup.out).toContain(`Backup written to ${archive}`);
    expect(backup.code).toBe(0);
    // The media were linked into the staging folder beside them, not copied or changed; it is gone.
    expect(mediaModes(from)).toEqual(modesBefore);
    expect(fs.readdirSync(from).filter((name) => name.startsWith('.backup-'))).toEqual([]);
    // Readable by the operator only: the archive, and every entry inside it.
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
    const listing = spawnSync('tar', ['-tvzf', archive], { encoding: 'utf8' }).stdout.trim().split('\n');
    expect(listing.length).toBeGreaterThan(3);
    for (const line of listing) expect(line).toMatch(/^(-rw-------|drwx------) /);

    const restore = cli('restore', [archive], env(into, intoUrl));
    expect(restore.out).toContain(`Restored ${archive}`);
    expect(restore.code).toBe(0);

    const before = await rowCounts(configFor(from, fromUrl));
    expect(before['public.users']).toBeGreaterThan(0);
    expect(before['public.comments']).toBe(1);
    expect(before['public.shop_products']).toBeGreaterThan(0);
    expect(before['public.vip_mixes']).toBeGreaterThan(0);
    expect(await rowCounts(configFor(into, intoUrl))).toEqual(before);
    const media = mediaChecksums(from);
    expect(Object.keys(media).length).toBeGreaterThan(0);
    expect(mediaChecksums(into)).toEqual(media);

    // The target now holds a database: a second restore is refused and changes nothing.
    const again = cli('restore', [archive], env(into, intoUrl));
    expect(again.code).toBe(1);
    expect(again.out).toContain('add --force');
    expect(await rowCounts(configFor(into, intoUrl))).toEqual(before);
    const forced = cli('restore', [archive, '--force'], env(into, intoUrl));
    expect(forced.code).toBe(0);
    expect(await rowCounts(configFor(into, intoUrl))).toEqual(before);

    // A forced restore whose database does not load changes nothing, on either database.
    const garbage = 'this is not a database dump';
    const bad = path.join(temp, `${kind}-bad-database.tar.gz`);
    const dbKind = kind === 'PGlite' ? 'pglite' : 'postgresql';
    fs.writeFileSync(
      bad,
      tarGz([
        { name: 'manifest.json', body: manifestFor(garbage, [{ path: 'new.txt', body: 'new' }], dbKind) },
        { name: `database/${dbKind === 'pglite' ? 'pglite.tar.gz' : 'postgres.dump'}`, body: garbage },
        { name: 'media/new.txt', body: 'new' },
      ]),
    );
    const failed = cli('restore', [bad, '--force'], env(into, intoUrl));
    expect(failed.code).toBe(1);
    expect(failed.out).toContain('Nothing was changed');
    expect(await rowCounts(configFor(into, intoUrl))).toEqual(before);
    expect(mediaChecksums(into)).toEqual(media);
  });
});

describe('backup and restore refuse what they cannot do whole', { timeout: 120_000 }, () => {
  it('a PGlite database in use (DHR running on it) is not backed up: the lock refuses, no archive is written', async () => {
    const dataDir = path.join(temp, 'PGlite-from');
    const running = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    try {
      const out = path.join(temp, 'while-running.tar.gz');
      const r = cli('backup', ['--out', out], { DATA_DIR: dataDir });
      expect(r.code).toBe(1);
      expect(r.out).toContain('is already open in process');
      expect(fs.existsSync(out)).toBe(false);
    } finally {
      await running.close();
    }
  });

  it('a file that is not an archive, and an archive whose files do not match their checksums: nothing restored', () => {
    const junk = path.join(temp, 'junk.tar.gz');
    fs.writeFileSync(junk, 'not a backup at all');
    const target = path.join(temp, 'untouched');
    const r = cli('restore', [junk], { DATA_DIR: target });
    expect(r.code).toBe(1);
    expect(r.out).toContain('is not a DHR backup');
    expect(fs.existsSync(path.join(target, 'db'))).toBe(false);

    // A real archive with one media file altered after the manifest was written.
    const archive = path.join(temp, 'PGlite.tar.gz');
    const unpacked = path.join(temp, 'tampered');
    fs.mkdirSync(unpacked);
    spawnSync('tar', ['-xzf', archive, '-C', unpacked]);
    const manifest = JSON.parse(fs.readFileSync(path.join(unpacked, 'manifest.json'), 'utf8')) as { media: { files: { path: string }[] } };
    const victim = manifest.media.files[0]?.path ?? '';
    fs.appendFileSync(path.join(unpacked, 'media', victim), 'x');
    const tampered = path.join(temp, 'tampered.tar.gz');
    spawnSync('tar', ['-czf', tampered, '-C', unpacked, '.']);
    const t = cli('restore', [tampered], { DATA_DIR: target });
    expect(t.code).toBe(1);
    expect(t.out).toContain(`The backup is damaged: media/${victim}`);
    expect(fs.existsSync(path.join(target, 'db'))).toBe(false);
  });
});

/** A .tar.gz built byte by byte, so a test can write the entries `tar -c` never would. */
function tarGz(entries: { name: string; type?: string; body?: string | Buffer; link?: string }[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const body = Buffer.from(e.body ?? '');
    const h = Buffer.alloc(512);
    h.write(e.name, 0, 100);
    h.write('0000600\0', 100);
    h.write('0000000\0', 108);
    h.write('0000000\0', 116);
    h.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
    h.write('00000000000\0', 136);
    h.write('        ', 148);
    h.write(e.type ?? '0', 156);
    if (e.link) h.write(e.link, 157, 100);
    h.write('ustar\0', 257);
    h.write('00', 263);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(h, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return zlib.gzipSync(Buffer.concat(blocks));
}

const sha = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');

/** A manifest naming a (fake) PGlite dump and the given media files, each with its real checksum. */
function manifestFor(database: string | Buffer, media: { path: string; body: string }[], kind: 'pglite' | 'postgresql' = 'pglite'): string {
  return JSON.stringify({
    format: 'dhr-backup',
    formatVersion: 1,
    createdAt: new Date().toISOString(),
    dhrVersion: '0.1.0',
    node: process.version,
    database: {
      kind,
      serverVersion: kind === 'pglite' ? 'PGlite' : '16',
      path: kind === 'pglite' ? 'database/pglite.tar.gz' : 'database/postgres.dump',
      bytes: Buffer.from(database).length,
      sha256: sha(database),
    },
    media: { kind: 'local', files: media.map((m) => ({ path: m.path, bytes: m.body.length, sha256: sha(m.body) })) },
  });
}

describe('backups: only their owner reads them; restores never destroy and never leave their folder', { timeout: 120_000 }, () => {
  it('refuses to write a backup into a directory every user may write to, unless --force', () => {
    const shared = path.join(temp, 'shared');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o777);
    const out = path.join(shared, 'b.tar.gz');
    const r = cli('backup', ['--out', out], { DATA_DIR: path.join(temp, 'PGlite-from'), LOG_LEVEL: 'silent' });
    expect(r.code).toBe(1);
    expect(r.out).toContain('is writable by every user');
    expect(r.out).toContain('--force');
    expect(fs.readdirSync(shared)).toEqual([]);
    const forced = cli('backup', ['--out', out, '--force'], { DATA_DIR: path.join(temp, 'PGlite-from'), LOG_LEVEL: 'silent' });
    expect(forced.code).toBe(0);
    expect(fs.statSync(out).mode & 0o777).toBe(0o600);
  });

  it('a failed restore --force leaves the old database and media as they were and says "Nothing was changed"', async () => {
    const into = path.join(temp, 'PGlite-into');
    const before = await rowCounts(configFor(into));
    const media = mediaChecksums(into);
    const garbage = 'this is not a PGlite data directory';
    const archive = path.join(temp, 'bad-database.tar.gz');
    fs.writeFileSync(
      archive,
      tarGz([
        { name: 'manifest.json', body: manifestFor(garbage, [{ path: 'new.txt', body: 'new' }]) },
        { name: 'database/pglite.tar.gz', body: garbage },
        { name: 'media/new.txt', body: 'new' },
      ]),
    );
    const r = cli('restore', [archive, '--force'], { DATA_DIR: into, LOG_LEVEL: 'silent' });
    expect(r.code).toBe(1);
    expect(r.out).toContain('Nothing was changed');
    expect(r.out.trim().split('\n')).toHaveLength(1);
    expect(await rowCounts(configFor(into))).toEqual(before);
    expect(mediaChecksums(into)).toEqual(media);
    expect(fs.readdirSync(into).sort()).toEqual(['db', 'media']);
  });

  it('refuses archives with .., absolute names, links or devices, and manifests whose paths leave media/: nothing written anywhere', () => {
    const target = path.join(temp, 'hostile-target');
    const outside = path.join(temp, 'escaped.txt');
    const cases: { why: string; entries: Parameters<typeof tarGz>[0]; says: string }[] = [
      { why: '..', entries: [{ name: '../escaped.txt', body: 'x' }], says: 'path with ..' },
      { why: 'absolute', entries: [{ name: outside, body: 'x' }], says: 'absolute path' },
      { why: 'symlink', entries: [{ name: 'media/link', type: '2', link: '/etc/passwd' }], says: 'a symbolic link' },
      { why: 'hardlink', entries: [{ name: 'media/link', type: '1', link: '/etc/passwd' }], says: 'a hard link' },
      { why: 'device', entries: [{ name: 'media/dev', type: '3' }], says: 'a device' },
      { why: 'fifo', entries: [{ name: 'media/fifo', type: '6' }], says: 'a FIFO' },
    ];
    for (const c of cases) {
      const archive = path.join(temp, `hostile-${c.why}.tar.gz`);
      fs.writeFileSync(archive, tarGz([{ name: 'manifest.json', body: '{}' }, ...c.entries]));
      const r = cli('restore', [archive], { DATA_DIR: target, LOG_LEVEL: 'silent' });
      expect(r.code, c.why).toBe(1);
      expect(r.out, c.why).toContain(c.says);
      expect(r.out, c.why).toContain('Nothing was changed');
      expect(fs.existsSync(outside), c.why).toBe(false);
      expect(fs.existsSync(path.join(target, 'db')), c.why).toBe(false);
    }

    // Well-formed entries, but the manifest sends a media file to ../ (today it would land beside media/).
    const archive = path.join(temp, 'hostile-manifest.tar.gz');
    fs.writeFileSync(
      archive,
      tarGz([
        { name: 'manifest.json', body: manifestFor('db', [{ path: '../escaped.txt', body: 'x' }]) },
        { name: 'database/pglite.tar.gz', body: 'db' },
        { name: 'escaped.txt', body: 'x' },
      ]),
    );
    const m = cli('restore', [archive], { DATA_DIR: target, LOG_LEVEL: 'silent' });
    expect(m.code).toBe(1);
    expect(m.out).toContain('Nothing was changed');
    expect(fs.existsSync(path.join(target, 'escaped.txt'))).toBe(false);
    expect(fs.existsSync(path.join(target, 'db'))).toBe(false);
  });

  it('a truncated archive is called damaged or truncated', () => {
    const whole = fs.readFileSync(path.join(temp, 'PGlite.tar.gz'));
    const cut = path.join(temp, 'truncated.tar.gz');
    fs.writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    const target = path.join(temp, 'truncated-target');
    const r = cli('restore', [cut], { DATA_DIR: target, LOG_LEVEL: 'silent' });
    expect(r.code).toBe(1);
    expect(r.out).toContain('is damaged or truncated');
    expect(r.out).toContain('Nothing was changed');
    expect(fs.existsSync(path.join(target, 'db'))).toBe(false);
  });
});

/** A public read of an app, as JSON text (the same answer on both sides proves the same rows behind it). */
async function answers(config: Config, urls: string[]): Promise<{ answers: Record<string, string>; users: unknown[]; audio: Record<string, string> }> {
  const app = await buildApp(config, { logger: false });
  try {
    await app.ready();
    const out: Record<string, string> = {};
    for (const url of urls) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      out[url] = res.body;
    }
    const users = await app.database.db.execute(sql`select id, email, username, password_hash, created_at from users order by email`);
    // Each mix's audio, read through the app's media storage.
    const keys = await app.database.db.execute(sql`select s3_url as key from vip_mixes where s3_url like 'mixes/%' order by 1`);
    const audio: Record<string, string> = {};
    for (const { key } of (keys as unknown as { rows: { key: string }[] }).rows) {
      const chunks: Buffer[] = [];
      for await (const c of await app.mediaStorage.open(key)) chunks.push(Buffer.from(c as Buffer));
      audio[key] = sha(Buffer.concat(chunks));
    }
    return { answers: out, users: (users as unknown as { rows: unknown[] }).rows, audio };
  } finally {
    await app.close();
  }
}

describe.runIf(serverUrl)('restore --into-postgres: a PGlite backup moved into PostgreSQL', { timeout: 300_000 }, () => {
  it('moves every row, the migration history, sequences and media; the app on it answers the same; a truncated archive and a running DHR are refused', async () => {
    const from = path.join(temp, 'move-from');
    const into = path.join(temp, 'move-into');
    const archive = path.join(temp, 'move.tar.gz');
    await populate(configFor(from));
    const backup = cli('backup', ['--out', archive], { DATA_DIR: from, LOG_LEVEL: 'silent' });
    expect(backup.code, backup.out).toBe(0);
    const url = await freshPostgresDatabase(serverUrl ?? '', 'dhr_backup_moved');
    const env = { DATA_DIR: into, DATABASE_URL: url, LOG_LEVEL: 'silent' };

    // A PGlite backup without --into-postgres is refused as before.
    const plain = cli('restore', [archive], env);
    expect(plain.code).toBe(1);
    expect(plain.out).toContain('unset DATABASE_URL');

    // Cut in half: damaged or truncated, the database left empty.
    const cut = path.join(temp, 'move-truncated.tar.gz');
    const whole = fs.readFileSync(archive);
    fs.writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    const truncated = cli('restore', [cut, '--into-postgres'], env);
    expect(truncated.code).toBe(1);
    expect(truncated.out).toContain('is damaged or truncated');
    expect(truncated.out).toContain('Nothing was changed');

    const moved = cli('restore', [archive, '--into-postgres'], env);
    expect(moved.out).toContain('pglite database moved into PostgreSQL');
    expect(moved.code).toBe(0);

    const before = await rowCounts(configFor(from));
    expect(before['public.users']).toBeGreaterThan(0);
    expect(before['public.comments']).toBe(1);
    expect(before['drizzle.__drizzle_migrations']).toBeGreaterThan(0);
    expect(await rowCounts(configFor(into, url))).toEqual(before);
    expect(mediaChecksums(into)).toEqual(mediaChecksums(from));

    const reads = ['/api/vip-mixes', '/api/comments/recent', '/api/channels'];
    const source = await answers(configFor(from), reads);
    const target = await answers(configFor(into, url), reads);
    expect(Object.keys(target.audio).length).toBeGreaterThan(0);
    expect(target).toEqual(source);
    expect(target.answers['/api/comments/recent']).toContain('Rain by Kerri Chandler');

    // Sequences continue where they were: a new row takes the next id, not one already used.
    const database = await openDatabase({ databaseUrl: url });
    try {
      const ids = await database.db.execute(sql`select count(*)::int as n, count(distinct id)::int as d from drizzle.__drizzle_migrations`);
      const row = (ids as unknown as { rows: { n: number; d: number }[] }).rows[0];
      expect(row?.n).toBe(row?.d);
      await database.db.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('probe', 0)`);
      await database.db.execute(sql`delete from drizzle.__drizzle_migrations where hash = 'probe'`);
    } finally {
      await database.close();
    }

    // The target now has tables: --into-postgres never writes over them, even with --force.
    const again = cli('restore', [archive, '--into-postgres', '--force'], env);
    expect(again.code).toBe(1);
    expect(again.out).toContain('fills an empty database only');

    // A DHR server connected to the database: any restore there refuses, naming how to stop it.
    const running = await buildApp(configFor(into, url), { logger: false });
    try {
      await running.ready();
      const pgBackup = path.join(temp, 'move-pg.tar.gz');
      const dumped = cli('backup', ['--out', pgBackup], env);
      expect(dumped.code, dumped.out).toBe(0);
      const refused = cli('restore', [pgBackup, '--force'], env);
      expect(refused.code).toBe(1);
      expect(refused.out).toContain('DHR is running on the database');
      expect(refused.out).toContain("systemctl stop 'dhr@*'");
      expect(refused.out).toContain('Nothing was changed');
    } finally {
      await running.close();
    }
    expect(await rowCounts(configFor(into, url))).toEqual(before);
  });

  it('refuses a backup whose database has migrations this DHR does not know (made by a newer version): the database stays empty', async () => {
    // The archive of the test above, its database given one migration from the future.
    const unpacked = path.join(temp, 'move-newer');
    fs.mkdirSync(unpacked);
    spawnSync('tar', ['-xzf', path.join(temp, 'move.tar.gz'), '-C', unpacked]);
    const dumpFile = path.join(unpacked, 'database', 'pglite.tar.gz');
    const db = new PGlite(path.join(temp, 'move-newer-db'), { extensions: { pg_trgm }, loadDataDir: new Blob([fs.readFileSync(dumpFile)]) });
    await db.query(`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-the-future', 4102444800000)`);
    fs.writeFileSync(dumpFile, Buffer.from(await (await db.dumpDataDir('gzip')).arrayBuffer()));
    await db.close();
    const manifestFile = path.join(unpacked, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { database: { bytes: number; sha256: string } };
    const dump = fs.readFileSync(dumpFile);
    manifest.database = { ...manifest.database, bytes: dump.length, sha256: sha(dump) };
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));
    const archive = path.join(temp, 'move-newer.tar.gz');
    spawnSync('tar', ['-czf', archive, '-C', unpacked, '.']);

    const url = await freshPostgresDatabase(serverUrl ?? '', 'dhr_backup_newer');
    const r = cli('restore', [archive, '--into-postgres'], { DATA_DIR: path.join(temp, 'move-newer-into'), DATABASE_URL: url, LOG_LEVEL: 'silent' });
    expect(r.code).toBe(1);
    expect(r.out).toContain('1 migration(s) this DHR does not know');
    expect(r.out).toContain('Nothing was changed');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const tables = await client.query("select count(*)::int as n from information_schema.tables where table_schema in ('public', 'drizzle')");
      expect(tables.rows[0]).toEqual({ n: 0 });
    } finally {
      await client.end();
    }
    expect(fs.existsSync(path.join(temp, 'move-newer-into', 'media'))).toBe(false);
  });
});
