/**
 * `npm run restore -- FILE [--force]`: restores a backup of `npm run backup` into the configured
 * DATA_DIR (or DATABASE_URL). A target that already holds a database or media is refused unless --force.
 */
import { parseArgs } from 'node:util';
import { runOperatorCommand } from './lib/operator-command';
import { restoreBackup } from './lib/backup-archive';

const USAGE = 'Usage: npm run restore -- FILE [--force]   (--force replaces an existing database and media)';

await runOperatorCommand(USAGE, async (config) => {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return { message: USAGE };
  const file = positionals[0];
  if (!file || positionals.length > 1) return { message: USAGE, code: 2 };
  const manifest = await restoreBackup(config, file, values.force === true);
  return {
    message: `Restored ${file} (made ${manifest.createdAt} by DHR ${manifest.dhrVersion}): ${manifest.database.kind} database, ${manifest.media.files.length} media files.`,
  };
});
