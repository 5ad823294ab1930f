import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/server/db/client';
import { countActiveSessions, createSession } from '../src/server/lib/sessions';
import { findMemberByEmail, insertMember } from '../src/server/modules/members/members-repository';

/** `npm run admin -- create ...` run as the operator runs it, against a temporary DATA_DIR. */
const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dhr-admin-cli-'));
const PASSWORD = 'deep-house-admin-1';

function admin(args: string[], stdin = `${PASSWORD}\n`, databaseUrl?: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const r = spawnSync(tsx, [path.join(root, 'scripts', 'admin.ts'), 'create', ...args], { cwd: root, env, input: stdin, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** Opens the CLI's database (after the CLI has exited: PGlite allows one process) for `read`. */
async function withDb<T>(read: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>): Promise<T> {
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
  try {
    return await read(database.db);
  } finally {
    await database.close();
  }
}

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('admin CLI', { timeout: 180_000 }, () => {
  it('refuses with exit 1 when DATA_DIR holds no database and neither DATABASE_URL nor --init is given; creates nothing', () => {
    const r = admin(['--email', 'boss@example.test', '--username', 'boss']);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`No DHR database found in ${dataDir}. Set DATABASE_URL to the app's database, or pass --init to create a new one here.`);
    expect(fs.existsSync(path.join(dataDir, 'db'))).toBe(false);
  });

  it('--init creates the database and the admin', async () => {
    const r = admin(['--email', 'boss@example.test', '--username', 'boss', '--init']);
    expect(r.out).toContain('Admin boss@example.test created');
    expect(r.code).toBe(0);
    const boss = await withDb((db) => findMemberByEmail(db, 'boss@example.test'));
    expect(boss?.isAdmin).toBe(true);
  });

  it('an existing email without --promote: exit 1, nothing changed', async () => {
    const before = await withDb((db) => findMemberByEmail(db, 'boss@example.test'));
    const r = admin(['--email', 'boss@example.test', '--username', 'someoneelse'], 'another-password-9\n');
    expect(r.code).toBe(1);
    expect(r.out).toContain('--promote');
    const after = await withDb((db) => findMemberByEmail(db, 'boss@example.test'));
    expect(after).toEqual(before);
  });

  it('--promote refuses an account whose email is not verified (an attacker may have pre-registered it): says how to verify, changes nothing', async () => {
    const squatter = await withDb((db) =>
      insertMember(db, { email: 'owner@example.test', username: 'squatter', passwordHash: 'scrypt$attackers-hash', emailVerifiedAt: null }),
    );
    const r = admin(['--email', 'owner@example.test', '--promote'], 'a-brand-new-pass-7\na-brand-new-pass-7\n');
    expect(r.code).toBe(1);
    expect(r.out).toContain('has not confirmed its email address');
    expect(r.out).toContain('signing in with an email link');
    expect(r.out).toContain('Nothing was changed');
    const after = await withDb((db) => findMemberByEmail(db, 'owner@example.test'));
    expect(after).toMatchObject({ isAdmin: false, passwordHash: 'scrypt$attackers-hash', id: squatter.id });
  });

  it('--promote shows age and last sign-in, ends every session and sets the new password typed twice; a mismatch changes nothing', async () => {
    const member = await withDb((db) => insertMember(db, { email: 'listener@example.test', username: 'listener', passwordHash: 'scrypt$kept-hash' }));
    expect(member.isAdmin).toBe(false);
    await withDb(async (db) => {
      await createSession(db, member.id);
      await createSession(db, member.id);
    });

    // Once only, an empty password, or two different ones: refused, nothing changed.
    for (const stdin of ['a-brand-new-pass-7\n', '\n\n', 'a-brand-new-pass-7\nanother-pass-77\n']) {
      const r = admin(['--email', 'listener@example.test', '--promote'], stdin);
      expect(r.code, stdin).toBe(2);
      const same = await withDb((db) => findMemberByEmail(db, 'listener@example.test'));
      expect(same, stdin).toMatchObject({ isAdmin: false, passwordHash: 'scrypt$kept-hash' });
    }
    expect(await withDb((db) => countActiveSessions(db, member.id))).toBe(2);

    const r = admin(['--email', 'listener@example.test', '--promote'], 'a-brand-new-pass-7\na-brand-new-pass-7\n');
    expect(r.out).toMatch(/account created \d{4}-\d{2}-\d{2} \(0 days ago\), last sign-in never/);
    expect(r.out).toContain('every session of the account ended');
    expect(r.code).toBe(0);
    const promoted = await withDb((db) => findMemberByEmail(db, 'listener@example.test'));
    expect(promoted).toMatchObject({ isAdmin: true, username: 'listener' });
    expect(promoted?.passwordHash).not.toBe('scrypt$kept-hash');
    expect(await withDb((db) => countActiveSessions(db, member.id))).toBe(0);
  });

  it('--promote of a member without a password says so', async () => {
    await withDb((db) => insertMember(db, { email: 'linkonly@example.test', username: 'linkonly', passwordHash: null }));
    const r = admin(['--email', 'linkonly@example.test', '--promote'], 'a-brand-new-pass-7\na-brand-new-pass-7\n');
    expect(r.out).toContain('linkonly@example.test has no password');
    expect(r.code).toBe(0);
    expect((await withDb((db) => findMemberByEmail(db, 'linkonly@example.test')))?.passwordHash).toMatch(/\S/);
  });

  it('a malformed DATABASE_URL or a refused connection: one line, exit 2', () => {
    for (const [url, says] of [
      ['http://example.test/db', 'is not a PostgreSQL URL'],
      ['postgres://dhr:pw@127.0.0.1:1/dhr', 'connection refused'],
    ] as const) {
      const r = admin(['--email', 'boss@example.test', '--username', 'boss'], `${PASSWORD}\n`, url);
      expect(r.code, url).toBe(2);
      expect(r.out, url).toContain(says);
      expect(r.out.trim().split('\n'), url).toHaveLength(1);
    }
  });
});

const serverUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!serverUrl)('admin CLI on PostgreSQL', { timeout: 180_000 }, () => {
  const urlFor = (name: string, change: (u: URL) => void = () => undefined) => {
    const u = new URL(serverUrl ?? '');
    u.pathname = `/${name}`;
    change(u);
    return u.toString();
  };

  it('an existing empty database (no DHR tables) is refused without --init and left empty; wrong password and unknown database are one line', async () => {
    const server = new pg.Client({ connectionString: serverUrl });
    await server.connect();
    await server.query('DROP DATABASE IF EXISTS dhr_admin_cli_empty WITH (FORCE)');
    await server.query('CREATE DATABASE dhr_admin_cli_empty');
    await server.end();
    const empty = urlFor('dhr_admin_cli_empty');
    const r = admin(['--email', 'boss@example.test', '--username', 'boss'], `${PASSWORD}\n`, empty);
    expect(r.code).toBe(1);
    expect(r.out).toContain('holds no DHR tables');
    expect(r.out).toContain('--init');
    const check = new pg.Client({ connectionString: empty });
    await check.connect();
    const tables = await check.query("select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')");
    await check.end();
    expect(tables.rows[0].n).toBe(0);

    const init = admin(['--email', 'boss@example.test', '--username', 'boss', '--init'], `${PASSWORD}\n`, empty);
    expect(init.out).toContain('Admin boss@example.test created');
    expect(init.code).toBe(0);

    for (const [url, says] of [
      [urlFor('dhr_admin_cli_empty', (u) => (u.password = 'certainly-wrong')), 'refused the user name or password'],
      [urlFor('dhr_no_such_database_here'), 'has no database named "dhr_no_such_database_here"'],
    ] as const) {
      const bad = admin(['--email', 'boss@example.test', '--username', 'boss'], `${PASSWORD}\n`, url);
      expect(bad.code, url).toBe(2);
      expect(bad.out, url).toContain(says);
      expect(bad.out.trim().split('\n'), url).toHaveLength(1);
    }
  });
});
