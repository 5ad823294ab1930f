import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/server/db/client';
import { findMemberByEmail, insertMember } from '../src/server/modules/members/members-repository';

/** `npm run admin -- create ...` run as the operator runs it, against a temporary DATA_DIR. */
const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dhr-admin-cli-'));
const PASSWORD = 'deep-house-admin-1';

function admin(args: string[], stdin = `${PASSWORD}\n`) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
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

  it('--promote makes a member an admin and keeps their password and name; a new password given replaces it', async () => {
    const member = await withDb((db) => insertMember(db, { email: 'listener@example.test', username: 'listener', passwordHash: 'scrypt$kept-hash' }));
    expect(member.isAdmin).toBe(false);
    const r = admin(['--email', 'listener@example.test', '--promote'], '\n');
    expect(r.out).toContain('password kept');
    expect(r.code).toBe(0);
    const promoted = await withDb((db) => findMemberByEmail(db, 'listener@example.test'));
    expect(promoted).toMatchObject({ isAdmin: true, passwordHash: 'scrypt$kept-hash', username: 'listener' });

    const again = admin(['--email', 'listener@example.test', '--promote'], 'a-brand-new-pass-7\n');
    expect(again.code).toBe(0);
    const replaced = await withDb((db) => findMemberByEmail(db, 'listener@example.test'));
    expect(replaced?.passwordHash).not.toBe('scrypt$kept-hash');
  });
});
