/**
 * Operator tool: `npm run admin -- create --email E --username U` creates an admin. The password is
 * asked for (hidden) on a terminal, or read from the first line of standard input:
 * `printf '%s\n' "$PW" | npm run admin -- create --email E --username U`.
 *
 * It never surprises: without DATABASE_URL it uses the PGlite database under DATA_DIR and refuses
 * when there is none (a wrong DATA_DIR would otherwise create an empty database nobody serves),
 * unless --init asks for a new one; DATABASE_URL naming a database without DHR's tables is refused the
 * same way. An email that already has an account is refused unless --promote, which makes that member
 * an admin only when their email is verified (an attacker's pre-registered, unconfirmed account never
 * becomes one), shows the account's age and last sign-in, ends all its sessions and sets the new
 * password typed twice (docs/security.md, "The admin command line").
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { emailSchema, newPasswordSchema, usernameSchema } from '../src/contracts/auth';
import { ConfigError, loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { DatabaseLockedError } from '../src/server/db/dir-lock';
import { credentialsChanged } from '../src/server/lib/sessions';
import { hashPassword } from '../src/server/modules/auth/passwords';
import { findMemberByEmail, insertAdmin, promoteToAdmin } from '../src/server/modules/members/members-repository';

const USAGE = `Usage: npm run admin -- create --email <email> --username <name> [--promote] [--init]
The password is prompted for, or read from the first line of standard input.
  --promote  the email already has a verified account: make it an admin, end its sessions and set
             the new password (asked twice; on standard input, the first two lines)
  --init     no database under DATA_DIR yet: create one there`;

/** A PGlite database directory holds PG_VERSION once initialised. */
const hasPgliteDatabase = (dir: string) => fs.existsSync(path.join(dir, 'PG_VERSION'));

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

/**
 * Reads the password: hidden prompt, asked twice, on a terminal; else the first line of stdin, and the
 * second too when `twice` (a mismatch refuses).
 */
async function readPassword(twice: boolean): Promise<string> {
  if (!process.stdin.isTTY) {
    let data = '';
    for await (const chunk of process.stdin) data += String(chunk);
    const [first = '', second] = data.split(/\r?\n/);
    if (twice && (second === undefined || second !== first)) fail('Passwords do not match: give the new password twice (two lines on standard input).', 2);
    return first;
  }
  const ask = (question: string) =>
    new Promise<string>((resolve) => {
      const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
      // Echo nothing while the password is typed.
      const write = (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput.bind(rl);
      (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
        if (s.includes(question)) write(s);
      };
      rl.question(question, (answer) => {
        rl.close();
        process.stdout.write('\n');
        resolve(answer);
      });
    });
  const first = await ask(twice ? 'New password: ' : 'Password: ');
  const second = await ask('Repeat password: ');
  if (first !== second) fail('Passwords do not match', 2);
  return first;
}

/** One line for the failures an operator meets when DATABASE_URL is wrong, instead of pg's error object. */
function connectionFailure(err: unknown, url: URL): string | undefined {
  const e = err as { code?: string; errors?: { code?: string }[] };
  const code = e.code ?? e.errors?.[0]?.code;
  const where = `${url.hostname}:${url.port || '5432'}`;
  const name = decodeURIComponent(url.pathname.slice(1));
  if (code === '28P01' || code === '28000') return `PostgreSQL at ${where} refused the user name or password in DATABASE_URL.`;
  if (code === '3D000') return `PostgreSQL at ${where} has no database named "${name}": check DATABASE_URL (create the database first).`;
  if (code === 'ECONNREFUSED') return `Nothing answers at ${where} (connection refused): is PostgreSQL running, and is DATABASE_URL's host and port right?`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `The host ${url.hostname} in DATABASE_URL is not known.`;
  if (code === 'ETIMEDOUT' || /timeout/i.test((err as Error)?.message ?? '')) return `PostgreSQL at ${where} did not answer in time.`;
  return undefined;
}

/**
 * Checks DATABASE_URL before the app's code opens it (which would migrate any database it reaches):
 * one line and exit 2 on a malformed URL or a failed connection; a database without DHR's tables is
 * refused unless --init.
 */
async function checkPostgres(raw: string, init: boolean): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error('not postgres');
  } catch {
    fail('DATABASE_URL is not a PostgreSQL URL (postgres://user:password@host:5432/database).', 2);
  }
  const client = new pg.Client({ connectionString: raw, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  let hasTables: boolean;
  try {
    await client.connect();
    const res = await client.query<{ t: string | null }>("select to_regclass('public.users')::text as t");
    hasTables = Boolean(res.rows[0]?.t);
  } catch (err) {
    fail(connectionFailure(err, url) ?? `Could not use the database at DATABASE_URL: ${(err as Error).message.split('\n')[0]}`, 2);
  } finally {
    await client.end().catch(() => undefined);
  }
  if (!hasTables && !init) {
    fail(
      `The database at DATABASE_URL holds no DHR tables. Nothing was changed. Check DATABASE_URL names the app's database, or pass --init to set DHR up in this one.`,
    );
  }
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const daysAgo = (d: Date) => Math.floor((Date.now() - d.getTime()) / 86_400_000);

async function main() {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      username: { type: 'string' },
      promote: { type: 'boolean' },
      init: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals[0] !== 'create') fail(USAGE, values.help ? 0 : 2);

  const email = emailSchema.safeParse(values.email ?? '');
  if (!email.success) fail(`--email: ${email.error.issues[0]?.message ?? 'invalid'}\n${USAGE}`, 2);
  // --promote may leave the member's username as it is.
  const username = values.promote && values.username === undefined ? undefined : usernameSchema.safeParse(values.username ?? '');
  if (username && !username.success) fail(`--username: ${username.error.issues[0]?.message ?? 'invalid'}\n${USAGE}`, 2);

  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message, 2);
    throw err;
  }
  const pgliteDir = path.join(config.dataDir, 'db');
  if (!config.DATABASE_URL && !hasPgliteDatabase(pgliteDir) && !values.init) {
    fail(`No DHR database found in ${config.dataDir}. Set DATABASE_URL to the app's database, or pass --init to create a new one here.`);
  }
  if (config.DATABASE_URL) await checkPostgres(config.DATABASE_URL, values.init === true);
  let database;
  try {
    database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir });
  } catch (err) {
    // PGlite allows one process: stop the server first, or use DATABASE_URL.
    if (err instanceof DatabaseLockedError) fail(err.message, 3);
    throw err;
  }
  let code = 0;
  try {
    const existing = await findMemberByEmail(database.db, email.data);
    if (existing && !values.promote) {
      console.error(
        `${email.data} already has an account (${existing.username}). Nothing was changed. Pass --promote to make it an admin; their password is kept unless you give a new one.`,
      );
      code = 1;
      return;
    }
    if (existing) {
      if (!existing.emailVerifiedAt) {
        console.error(
          `Refused: ${email.data} has not confirmed its email address, so whoever registered it may not own it. Nothing was changed. ` +
            `Have the owner confirm it (the link in their registration mail, or by signing in with an email link from /auth), then run this again.`,
        );
        code = 1;
        return;
      }
      console.log(
        `${email.data} (${existing.username}): account created ${day(existing.createdAt)} (${daysAgo(existing.createdAt)} days ago), ` +
          `last sign-in ${existing.lastLoginAt ? `${day(existing.lastLoginAt)} (${daysAgo(existing.lastLoginAt)} days ago)` : 'never'}.`,
      );
      if (!existing.passwordHash) console.log(`${email.data} has no password (signs in by email link): the one you give becomes their first.`);
      const password = newPasswordSchema.safeParse(await readPassword(true));
      if (!password.success) {
        console.error(password.error.issues[0]?.message ?? 'Invalid password');
        code = 2;
        return;
      }
      const passwordHash = await hashPassword(password.data);
      // Admin rights start with a password only the operator knows: every session opened before ends.
      await database.db.transaction(async (tx) => {
        await promoteToAdmin(tx, existing.id, { passwordHash, username: username?.data });
        await credentialsChanged(tx, existing.id, 'admin_granted');
      });
      console.log(`${email.data} is now an admin: password replaced, every session of the account ended. Sign in at /auth.`);
      return;
    }
    if (!username) {
      console.error(`--username is required for a new admin\n${USAGE}`);
      code = 2;
      return;
    }
    const password = newPasswordSchema.safeParse(await readPassword(false));
    if (!password.success) {
      console.error(password.error.issues[0]?.message ?? 'Invalid password');
      code = 2;
      return;
    }
    await insertAdmin(database.db, { email: email.data, username: username.data, passwordHash: await hashPassword(password.data) });
    console.log(`Admin ${email.data} created. Sign in at /auth.`);
  } finally {
    await database.close();
    process.exitCode = code;
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
