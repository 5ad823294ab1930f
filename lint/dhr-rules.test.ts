import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { dhrRules, readTableOwnership } from './dhr-rules.js';

const root = path.resolve(import.meta.dirname, '..');
const linter = new Linter({ configType: 'flat', cwd: root });

/** The messages one of DHR's rules gives for `code` written in the repo-relative file `file`. */
function lint(rule: keyof typeof dhrRules, file: string, code: string): string[] {
  const config: Linter.Config[] = [
    {
      files: ['**/*.ts', '**/*.tsx'],
      languageOptions: { parser: tseslint.parser as Linter.Parser },
      plugins: { dhr: { rules: dhrRules } },
      rules: { [`dhr/${rule}`]: 'error' },
    },
  ];
  return linter.verify(code, config, { filename: path.join(root, file) }).map((m) => m.message);
}

describe('dhr lint rules refuse deliberate violations', () => {
  it('boundaries: contracts import neither side; the sides do not import each other; shared web parts import no feature', () => {
    expect(lint('boundaries', 'src/contracts/x.ts', "import { buildApp } from '../server/app';")).toEqual(['src/contracts must not import from server or web']);
    expect(lint('boundaries', 'src/web/lib/x.ts', "import { buildApp } from '../../server/app';")).toEqual(['the web app must not import the server']);
    expect(lint('boundaries', 'src/web/features/shop/x.ts', "import { A } from '../admin/components/a';")[0]).toMatch(/through its index only/);
    expect(lint('boundaries', 'src/web/lib/x.ts', "import { TIERS } from '../../contracts/tiers';")).toEqual([]);
    expect(lint('boundaries', 'src/web/components/ui/x.tsx', "import { AccessGate } from '../../features/auth';")).toEqual([
      'src/web/components is shared by every feature and must not import one',
    ]);
    expect(lint('boundaries', 'src/web/features/shop/x.tsx', "import { TextField } from '../../components/ui/form-controls';")).toEqual([]);
  });

  it('module-cycles: a server module may not import one that already depends on it', () => {
    // platforms reads and writes members' grants, so members may not import platforms.
    expect(lint('module-cycles', 'src/server/modules/members/x.ts', "import { runSync } from '../platforms/sync';")[0]).toMatch(/a cycle/);
    expect(lint('module-cycles', 'src/server/modules/platforms/x.ts', "import { findMemberById } from '../members/members-repository';")).toEqual([]);
  });

  it('table-ownership: only the owner (and listed readers and exceptions) import a table', () => {
    const importUsers = "import { users } from '../../db/schema';\nexport const t = users;";
    expect(lint('table-ownership', 'src/server/modules/members/members-repository.ts', importUsers)).toEqual([]);
    expect(lint('table-ownership', 'src/server/modules/shop/shop-service.ts', importUsers)[0]).toMatch(
      /^table 'users' belongs to src\/server\/modules\/members\/members-repository.ts/,
    );
    // Type imports are free: they carry no SQL.
    expect(lint('table-ownership', 'src/server/modules/shop/shop-service.ts', "import type { UserRow } from '../../db/schema';")).toEqual([]);
    // A listed reader may join the table but not write it.
    const reader = 'src/server/modules/news/forum-repository.ts';
    expect(lint('table-ownership', reader, `${importUsers}\ndb.select().from(users);`)).toEqual([]);
    expect(lint('table-ownership', reader, `${importUsers}\ndb.update(users).set({});`)[0]).toMatch(/may only read 'users'/);
    expect(lint('table-ownership', 'src/server/modules/shop/x.ts', "import * as schema from '../../db/schema';")[0]).toMatch(/for the database client only/);
    expect(lint('table-ownership', 'tests/api/x.test.ts', "import { users } from '../../src/server/db/schema';")).toEqual([]);
  });

  it('table-ownership: every table names its owner', () => {
    const unowned = [...readTableOwnership()].filter(([, e]) => !e.owner).map(([t]) => t);
    expect(unowned).toEqual([]);
    expect(readTableOwnership().get('users')?.owner).toBe('src/server/modules/members/members-repository.ts');
  });

  it('sql-in-repositories: services and routes do not build queries', () => {
    const query = "import { eq } from 'drizzle-orm';";
    expect(lint('sql-in-repositories', 'src/server/modules/shop/shop-service.ts', query)[0]).toMatch(/^SQL lives in repositories/);
    expect(lint('sql-in-repositories', 'src/server/modules/shop/shop-repository.ts', query)).toEqual([]);
    expect(lint('sql-in-repositories', 'src/server/modules/shop/shop-service.ts', "import type { SQL } from 'drizzle-orm';")).toEqual([]);
  });

  it('no-timers-in-routes: timers start in plugins', () => {
    expect(lint('no-timers-in-routes', 'src/server/modules/shop/shop-routes.ts', 'setInterval(() => undefined, 1000);')[0]).toMatch(/-plugin\.ts/);
    expect(lint('no-timers-in-routes', 'src/server/modules/shop/shop-plugin.ts', 'setInterval(() => undefined, 1000);')).toEqual([]);
  });

  it('no-module-decorators: modules share objects through the composition root, not Fastify decorators', () => {
    const decorate = "app.decorate('nowPlaying', {});";
    const augment = "declare module 'fastify' { interface FastifyInstance { nowPlaying: unknown } }";
    expect(lint('no-module-decorators', 'src/server/modules/radio/radio-plugin.ts', decorate)[0]).toMatch(/composition root/);
    expect(lint('no-module-decorators', 'src/server/modules/radio/radio-plugin.ts', augment)[0]).toMatch(/composition root/);
    expect(lint('no-module-decorators', 'src/server/modules/chat/x.ts', "app.decorateReply('x', null);")).toHaveLength(1);
    expect(lint('no-module-decorators', 'src/server/plugins/access.ts', `${decorate}\n${augment}`)).toEqual([]);
    expect(lint('no-module-decorators', 'src/server/app.ts', decorate)).toEqual([]);
  });

  it('routes-in-routes-files: every route is registered in a -routes.ts file', () => {
    const route = "app.get('/api/x', {}, async () => ({}));";
    expect(lint('routes-in-routes-files', 'src/server/modules/radio/radio-plugin.ts', route)[0]).toMatch(/-routes\.ts/);
    expect(lint('routes-in-routes-files', 'src/server/modules/radio/radio-plugin.ts', "app.route({ method: 'GET', url: '/x', handler });")).toHaveLength(1);
    expect(lint('routes-in-routes-files', 'src/server/modules/radio/radio-plugin.ts', "app.get('name');")).toEqual([]);
    expect(lint('routes-in-routes-files', 'src/server/modules/radio/live-metadata-routes.ts', route)).toEqual([]);
  });

  it('outbound-http-only: the server calls out only through lib/outbound-http.ts', () => {
    const call = "export const get = () => fetch('https://example.com/');";
    expect(lint('outbound-http-only', 'src/server/modules/radio/icecast-status.ts', call)[0]).toMatch(/lib\/outbound-http\.ts/);
    expect(lint('outbound-http-only', 'src/server/modules/radio/x.ts', "export const get = () => globalThis.fetch('https://example.com/');")).toHaveLength(1);
    expect(lint('outbound-http-only', 'src/server/lib/outbound-http.ts', call)).toEqual([]);
    expect(lint('outbound-http-only', 'src/web/lib/http.ts', call)).toEqual([]);
    expect(lint('outbound-http-only', 'src/server/modules/radio/x.ts', 'const fetch = (u: string) => u;\nexport const get = () => fetch("x");')).toEqual([]);
  });

  it('no-outbound-in-transaction: nothing calls out, sends mail or uploads inside a transaction callback', () => {
    const file = 'src/server/modules/platforms/x-service.ts';
    const imports = "import { serviceJson } from '../../lib/outbound-http';\nimport { fetchBmcSubscriptions } from './clients';\n";
    expect(lint('no-outbound-in-transaction', file, `${imports}db.transaction(async (tx) => { await serviceJson('https://x.test/'); });`)).toEqual([
      'serviceJson calls out inside a transaction: call it before the transaction opens (or after it ends)',
    ]);
    expect(lint('no-outbound-in-transaction', file, `${imports}db.transaction(async (tx) => [1].map(async () => fetchBmcSubscriptions(c)));`)).toHaveLength(1);
    expect(
      lint('no-outbound-in-transaction', file, 'db.transaction(async (tx) => { await app.mailer.send(m); await app.mediaStorage.put(k, b, {}); });'),
    ).toEqual([
      'mailer.send calls out inside a transaction: call it before the transaction opens (or after it ends)',
      'mediaStorage.put calls out inside a transaction: call it before the transaction opens (or after it ends)',
    ]);
    // Before the transaction opens: fine.
    expect(
      lint('no-outbound-in-transaction', file, `${imports}const list = await fetchBmcSubscriptions(c);\nawait db.transaction(async (tx) => store(tx, list));`),
    ).toEqual([]);
  });
});
