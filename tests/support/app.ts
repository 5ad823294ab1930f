import { randomBytes } from 'node:crypto';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, afterEach } from 'vitest';
import { buildApp, type BuildOptions, type DhrApp } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import { users, type NewUserRow, type UserRow } from '../../src/server/db/schema';
import { DAY_MS } from '../../src/contracts/time';
import { createSession, SESSION_COOKIE } from '../../src/server/lib/sessions';
import { accessPlugin } from '../../src/server/plugins/access';
import { errorsPlugin } from '../../src/server/plugins/errors';
import { Trouble } from './trouble';

/**
 * A fresh app per test file: PGlite in memory by default, or a fresh database on the PostgreSQL
 * server named by TEST_DATABASE_URL (CI runs the API suite both ways).
 */
export async function createTestApp(env: Record<string, string> = {}, overrides: Partial<Config> = {}, opts: BuildOptions = {}): Promise<DhrApp> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (serverUrl) {
    const name = `dhr_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(serverUrl);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const trouble = new Trouble('The server had trouble', 'expectServerErrors');
  // Error lines are read whatever level a test asks for; a test's own log stream still gets every line.
  const level = env.LOG_LEVEL && env.LOG_LEVEL !== 'silent' ? env.LOG_LEVEL : 'error';
  const config = loadConfig(
    { PUBLIC_URL: 'http://localhost:3000', ...env, LOG_LEVEL: level, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    { backgroundJobs: false, memoryDb: true, ...overrides },
  );
  const ownStream = opts.logStream;
  const app = await buildApp(config, {
    ...opts,
    logger: true,
    logStream: {
      write(line: string) {
        readLogLine(trouble, line);
        ownStream?.write(line);
      },
    },
  });
  app.addHook('onResponse', async (req, reply) => {
    if (reply.statusCode >= 500 && !declaredAnswer(req.routeOptions.schema?.response, reply.statusCode))
      trouble.add(`${req.method} ${req.url} answered ${reply.statusCode}`);
  });
  await app.ready();
  troubleOf.set(app, trouble);
  // A test fails on a 5xx answer or an error logged by the server that it did not expect (expectServerErrors).
  afterEach(() => trouble.check());
  afterAll(async () => {
    await app.close();
    await dropDatabase?.();
  });
  return app;
}

/**
 * A 5xx a route names in its reply schemas is one of its designed answers (a channel off air, the
 * live streams' cap, a platform that refused the token); a 500 never is.
 */
function declaredAnswer(response: unknown, status: number): boolean {
  if (status === 500 || !response || typeof response !== 'object') return false;
  return Object.keys(response).some((code) => code === String(status) || code === '5xx');
}

/** Pino's numeric levels: error and fatal. */
const ERROR_LEVEL = 50;

/** Reads the server's log lines: one at error level or above is trouble. */
function readLogLine(trouble: Trouble, line: string): void {
  let entry: { level?: number; msg?: string; err?: { message?: string } };
  try {
    entry = JSON.parse(line) as typeof entry;
  } catch {
    return;
  }
  if ((entry.level ?? 0) >= ERROR_LEVEL) trouble.add(`logged an error: ${entry.msg ?? ''}${entry.err?.message ? ` (${entry.err.message})` : ''}`);
}

const troubleOf = new WeakMap<FastifyInstance, Trouble>();

/**
 * Declares that the current test makes `app` answer 5xx or log errors matching `pattern` (an outage, a
 * platform that fails): the one way a test says so. Anything else still fails the test.
 */
export function expectServerErrors(app: FastifyInstance, pattern: RegExp = /./): void {
  const trouble = troubleOf.get(app);
  if (!trouble) throw new Error('expectServerErrors: not an app made by createTestApp');
  trouble.expect(pattern);
}

export type Role = 'anonymous' | 'free' | 'dhr1' | 'dhr2' | 'vip' | 'expired-vip' | 'admin';

export interface TestMember {
  user: UserRow;
  /** Cookie header value that carries the member's session. */
  cookie: string;
}

let counter = 0;

/** Inserts a member (with a session) straight into the database, for tests of other features. */
export async function createMember(app: FastifyInstance, fields: Partial<NewUserRow> = {}): Promise<TestMember> {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}`;
  const [user] = await app.database.db
    .insert(users)
    .values({
      email: `member-${tag}@example.test`,
      username: `member${tag}`,
      subscriptionTier: 'free',
      subscriptionStatus: 'inactive',
      ...fields,
    })
    .returning();
  if (!user) throw new Error('insert failed');
  const token = await createSession(app.database.db, user.id);
  return { user, cookie: `${SESSION_COOKIE}=${token}` };
}

/** Inserts many members straight into the database (no sessions), in chunks, for tests of figures and search. */
export async function insertMemberRows(app: FastifyInstance, rows: NewUserRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) await app.database.db.insert(users).values(rows.slice(i, i + 1000));
}

/** A member of the given role: paid tiers are active with no expiry; the expired VIP expired yesterday. */
export async function memberWithRole(app: FastifyInstance, role: Exclude<Role, 'anonymous'>): Promise<TestMember> {
  switch (role) {
    case 'free':
      return createMember(app);
    case 'dhr1':
    case 'dhr2':
    case 'vip':
      return createMember(app, { subscriptionTier: role, subscriptionStatus: 'active' });
    case 'expired-vip':
      return createMember(app, {
        subscriptionTier: 'vip',
        subscriptionStatus: 'active',
        subscriptionExpiry: new Date(Date.now() - DAY_MS),
      });
    case 'admin':
      return createMember(app, { isAdmin: true });
  }
}

/** GET /metrics as an admin (metrics are admin-only or behind METRICS_TOKEN). */
export async function readMetrics(app: FastifyInstance) {
  const admin = await memberWithRole(app, 'admin');
  return app.inject({ method: 'GET', url: '/metrics', headers: { cookie: admin.cookie } });
}

/** The real access and error plugins on a bare Fastify sharing the test app's database (for test-only routes). */
export async function accessOnlyApp(app: FastifyInstance): Promise<FastifyInstance> {
  const mini = Fastify({ logger: false });
  mini.decorate('config', app.config);
  mini.decorate('database', app.database);
  await mini.register(cookie);
  await mini.register(errorsPlugin);
  await mini.register(accessPlugin);
  return mini;
}
