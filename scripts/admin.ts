/**
 * Operator tool: `npm run admin -- create --email E --username U` creates an admin. The password is
 * asked for (hidden) on a terminal, or read from the first line of standard input:
 * `printf '%s\n' "$PW" | npm run admin -- create --email E --username U`.
 *
 * It never surprises: without DATABASE_URL it uses the PGlite database under DATA_DIR and refuses
 * when there is none (a wrong DATA_DIR would otherwise create an empty database nobody serves),
 * unless --init asks for a new one. An email that already has an account is refused unless
 * --promote, which makes that member an admin and keeps their password unless a new one is given.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { emailSchema, newPasswordSchema, usernameSchema } from '../src/contracts/auth';
import { ConfigError, loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { DatabaseLockedError } from '../src/server/db/dir-lock';
import { hashPassword } from '../src/server/modules/auth/passwords';
import { findMemberByEmail, insertAdmin, promoteToAdmin } from '../src/server/modules/members/members-repository';

const USAGE = `Usage: npm run admin -- create --email <email> --username <name> [--promote] [--init]
The password is prompted for, or read from the first line of standard input.
  --promote  the email already has an account: make it an admin (an empty password keeps theirs)
  --init     no database under DATA_DIR yet: create one there`;

/** A PGlite database directory holds PG_VERSION once initialised. */
const hasPgliteDatabase = (dir: string) => fs.existsSync(path.join(dir, 'PG_VERSION'));

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

/** Reads the password: hidden prompt on a terminal, else the first line of stdin. */
async function readPassword(hint = ''): Promise<string> {
  if (!process.stdin.isTTY) {
    let data = '';
    for await (const chunk of process.stdin) data += String(chunk);
    return data.split(/\r?\n/)[0] ?? '';
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
  const first = await ask(`Password${hint}: `);
  const second = await ask('Repeat password: ');
  if (first !== second) fail('Passwords do not match');
  return first;
}

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
      // An empty password keeps the member's own.
      const typed = await readPassword(' (empty keeps the current one)');
      const password = typed === '' ? undefined : newPasswordSchema.safeParse(typed);
      if (password && !password.success) {
        console.error(password.error.issues[0]?.message ?? 'Invalid password');
        code = 2;
        return;
      }
      await promoteToAdmin(database.db, existing.id, {
        passwordHash: password ? await hashPassword(password.data) : undefined,
        username: username?.data,
      });
      console.log(`${email.data} is now an admin (existing member; password ${password ? 'replaced' : 'kept'}).`);
      return;
    }
    if (!username) {
      console.error(`--username is required for a new admin\n${USAGE}`);
      code = 2;
      return;
    }
    const password = newPasswordSchema.safeParse(await readPassword());
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
