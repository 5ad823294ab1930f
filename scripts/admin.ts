/**
 * Operator tool: `npm run admin -- create --email E --username U` creates an admin (or makes an
 * existing member one). The password is asked for (hidden) on a terminal, or read from the first
 * line of standard input: `printf '%s\n' "$PW" | npm run admin -- create --email E --username U`.
 */
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { emailSchema, newPasswordSchema, usernameSchema } from '../src/contracts/auth';
import { ConfigError, loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { DatabaseLockedError } from '../src/server/db/dir-lock';
import { hashPassword } from '../src/server/modules/auth/passwords';
import { upsertAdmin } from '../src/server/modules/members/members-repository';

const USAGE = `Usage: npm run admin -- create --email <email> --username <name>
The password is prompted for, or read from the first line of standard input.`;

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

/** Reads the password: hidden prompt on a terminal, else the first line of stdin. */
async function readPassword(): Promise<string> {
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
  const first = await ask('Password: ');
  const second = await ask('Repeat password: ');
  if (first !== second) fail('Passwords do not match');
  return first;
}

async function main() {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { email: { type: 'string' }, username: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals[0] !== 'create') fail(USAGE, values.help ? 0 : 2);

  const email = emailSchema.safeParse(values.email ?? '');
  if (!email.success) fail(`--email: ${email.error.issues[0]?.message ?? 'invalid'}\n${USAGE}`, 2);
  const username = usernameSchema.safeParse(values.username ?? '');
  if (!username.success) fail(`--username: ${username.error.issues[0]?.message ?? 'invalid'}\n${USAGE}`, 2);
  const password = newPasswordSchema.safeParse(await readPassword());
  if (!password.success) fail(password.error.issues[0]?.message ?? 'Invalid password', 2);

  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message, 2);
    throw err;
  }
  let database;
  try {
    database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir: path.join(config.dataDir, 'db') });
  } catch (err) {
    // PGlite allows one process: stop the server first, or use DATABASE_URL.
    if (err instanceof DatabaseLockedError) fail(err.message, 3);
    throw err;
  }
  try {
    const passwordHash = await hashPassword(password.data);
    const outcome = await upsertAdmin(database.db, { email: email.data, username: username.data, passwordHash });
    console.log(
      outcome === 'promoted'
        ? `${email.data} is now an admin (existing member; password replaced).`
        : `Admin ${email.data} created. Sign in at /auth.`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
