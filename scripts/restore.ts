/**
 * `npm run restore -- FILE [--force] [--into-postgres]`: restores a backup of `npm run backup` into the
 * configured DATA_DIR (or DATABASE_URL). A target that already holds a database or media is refused
 * unless --force. --into-postgres moves a backup of the embedded database (PGlite) into the empty
 * PostgreSQL database at DATABASE_URL, its local media into DATA_DIR/media.
 */
import { parseArgs } from 'node:util';
import { runOperatorCommand } from './lib/operator-command';
import { restoreBackup } from './lib/backup-archive';

const USAGE =
  'Usage: npm run restore -- FILE [--force] [--into-postgres]   (--force replaces an existing database and media; --into-postgres moves a PGlite backup into the empty PostgreSQL database at DATABASE_URL)';

await runOperatorCommand(USAGE, async (config) => {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { force: { type: 'boolean' }, 'into-postgres': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return { message: USAGE };
  const file = positionals[0];
  if (!file || positionals.length > 1) return { message: USAGE, code: 2 };
  const intoPostgres = values['into-postgres'] === true;
  const manifest = await restoreBackup(config, file, { force: values.force === true, intoPostgres });
  const database = intoPostgres ? 'pglite database moved into PostgreSQL' : `${manifest.database.kind} database`;
  return {
    message: `Restored ${file} (made ${manifest.createdAt} by DHR ${manifest.dhrVersion}): ${database}, ${manifest.media.files.length} media files.`,
  };
});
