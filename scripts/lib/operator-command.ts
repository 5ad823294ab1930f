import { ConfigError, loadConfig, type Config } from '../../src/server/config';
import { DatabaseLockedError } from '../../src/server/db/dir-lock';
import { BackupError } from './backup-archive';

/**
 * Runs an operator command with the server's configuration; refusals an operator can act on (bad
 * configuration, a database in use, a non-empty target, a damaged archive) print their message and
 * exit non-zero without a stack trace.
 */
export async function runOperatorCommand(usage: string, body: (config: Config) => Promise<{ message: string; code?: number }>): Promise<void> {
  try {
    const { message, code = 0 } = await body(loadConfig());
    (code === 0 ? console.log : console.error)(message);
    process.exitCode = code;
  } catch (err) {
    if (err instanceof ConfigError || err instanceof DatabaseLockedError || err instanceof BackupError) {
      console.error(err.message);
      process.exitCode = err instanceof ConfigError ? 2 : 1;
      return;
    }
    if (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS')) {
      console.error(`${err.message}\n${usage}`);
      process.exitCode = 2;
      return;
    }
    throw err;
  }
}
