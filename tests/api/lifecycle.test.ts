import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { ConfigError, loadConfig } from '../../src/server/config';
import { users } from '../../src/server/db/schema';
import { memberWithRole } from '../support/app';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'dhr-life-'));

function runMain(env: Record<string, string>, timeoutMs = 60_000): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', DATABASE_URL: '', ...env },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('configuration', () => {
  it('names the variable when a value is bad', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ RECOGNIZER: 'shazam' })).toThrow(/RECOGNIZER/);
    expect(() => loadConfig({ PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone please' })).toThrow(/TRUST_PROXY/);
  });

  it('trusts X-Forwarded-For only from configured proxies', async () => {
    const { buildApp: build } = await import('../../src/server/app');
    for (const [trust, expected] of [
      [undefined, '10.1.1.1'],
      ['1', '203.0.113.9'],
    ] as const) {
      const app = await build(
        loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: '', ...(trust ? { TRUST_PROXY: trust } : {}) }, { backgroundJobs: false, memoryDb: true }),
        { logger: false },
      );
      let seen = '';
      app.addHook('onRequest', async (req) => {
        seen = req.ip;
      });
      await app.inject({ url: '/api/health', remoteAddress: '10.1.1.1', headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(seen).toBe(expected);
      await app.close();
    }
  });

  it('derives the public URL and the Secure cookie flag', () => {
    expect(loadConfig({ PORT: '4100' }).PUBLIC_URL).toBe('http://localhost:4100');
    expect(loadConfig({ PUBLIC_URL: 'https://dhr.example/' }).secureCookies).toBe(true);
  });

  it('stops start-up with the message when a variable is bad', async () => {
    const { code, output } = await runMain({ METADATA_POLL_S: '-3', DATA_DIR: tmp() });
    expect(code).toBe(2);
    expect(output).toContain('METADATA_POLL_S');
  });
});

describe('embedded database under DATA_DIR', () => {
  it('keeps data across a restart', async () => {
    const dataDir = tmp();
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' }, { backgroundJobs: false });
    const first = await buildApp(config, { logger: false });
    await first.database.db.insert(users).values({ email: 'keep@example.test', username: 'keeper' });
    await first.close();

    const second = await buildApp(config, { logger: false });
    const rows = await second.database.db.select().from(users).where(eq(users.email, 'keep@example.test'));
    expect(rows).toHaveLength(1);
    // Seeding is idempotent: one copy of each channel after two starts.
    expect((await second.inject('/api/channels')).json()).toHaveLength(2);
    // The lean buffer setting holds on a resumed directory too (it is what keeps the idle RSS down).
    expect(await second.database.db.execute(sql`SHOW shared_buffers`)).toMatchObject({ rows: [{ shared_buffers: '16MB' }] });
    await second.close();
  });

  it('refuses a second process on the same directory with a clear message', async () => {
    const dataDir = tmp();
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' }, { backgroundJobs: false });
    const app = await buildApp(config, { logger: false });
    try {
      const { code, output } = await runMain({ DATA_DIR: dataDir });
      expect(code).toBe(3);
      expect(output).toContain('already open in process');
    } finally {
      await app.close();
    }
    // Once the first one is closed the directory is free again.
    expect(fs.existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
  });
});

describe('the demo catalogue goes into a database once', () => {
  const catalogue = async (app: Awaited<ReturnType<typeof buildApp>>) => ({
    mixes: ((await app.inject('/api/vip-mixes')).json() as { id: string }[]).map((m) => m.id),
    products: ((await app.inject('/api/shop/products')).json() as { id: string }[]).map((p) => p.id),
  });

  it('keeps what an admin deleted deleted after a restart', async () => {
    const config = loadConfig({ DATA_DIR: tmp(), LOG_LEVEL: 'silent', DATABASE_URL: '' }, { backgroundJobs: false });
    const first = await buildApp(config, { logger: false });
    const seeded = await catalogue(first);
    expect(seeded.mixes.length).toBeGreaterThan(1);
    expect(seeded.products.length).toBeGreaterThan(1);
    const admin = await memberWithRole(first, 'admin');
    const [mix] = seeded.mixes;
    const [product] = seeded.products;
    expect((await first.inject({ method: 'DELETE', url: `/api/admin/vip-mixes/${mix}`, headers: { cookie: admin.cookie } })).statusCode).toBe(204);
    expect((await first.inject({ method: 'DELETE', url: `/api/admin/shop/products/${product}`, headers: { cookie: admin.cookie } })).statusCode).toBe(204);
    await first.close();

    const second = await buildApp(config, { logger: false });
    const after = await catalogue(second);
    expect(after.mixes).not.toContain(mix);
    expect(after.products).not.toContain(product);
    expect(after.mixes).toHaveLength(seeded.mixes.length - 1);
    await second.close();
  });

  it('seeds nothing into a fresh database started with SEED_DEMO=false, nor on a later start with it on', async () => {
    const dataDir = tmp();
    const off = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '', SEED_DEMO: 'false' }, { backgroundJobs: false }), {
      logger: false,
    });
    expect(await catalogue(off)).toEqual({ mixes: [], products: [] });
    await off.close();
    // The first start decided: a restart that forgets SEED_DEMO=false does not fill a production database.
    const on = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' }, { backgroundJobs: false }), { logger: false });
    expect(await catalogue(on)).toEqual({ mixes: [], products: [] });
    await on.close();
  });
});
