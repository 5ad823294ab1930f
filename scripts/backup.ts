/**
 * `npm run backup -- --out FILE`: one archive of this instance (database, local media, manifest with
 * checksums), readable by its owner only. Configured like the server (DATA_DIR, DATABASE_URL, S3_BUCKET). On PGlite, stop DHR first:
 * PGlite serves one process, and the lock refuses a backup of a database in use.
 */
import { parseArgs } from 'node:util';
import { atLowestPriority } from '../src/server/lib/low-priority';

// A backup runs beside the server (PostgreSQL): it and the threads and children it starts (pg_dump,
// the archive's compression) take only the CPU listeners' requests leave. The rest of the command is
// loaded (and compiled) after this line, so its start takes nothing from them either.
atLowestPriority();
const { dublinDate } = await import('../src/server/lib/dates');
const { runOperatorCommand } = await import('./lib/operator-command');
const { createBackup } = await import('./lib/backup-archive');

const USAGE = 'Usage: npm run backup -- [--out FILE] [--force]   (default: dhr-backup-<date>.tar.gz; --force writes into a directory every user may write to)';

await runOperatorCommand(USAGE, async (config) => {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { out: { type: 'string' }, force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return { message: USAGE };
  const out = values.out ?? `dhr-backup-${dublinDate(new Date())}.tar.gz`;
  const manifest = await createBackup(config, out, values.force === true);
  const media =
    manifest.media.kind === 's3'
      ? `media stay in S3 bucket ${manifest.media.bucket ?? ''} (back them up with the bucket's versioning)`
      : `${manifest.media.files.length} media files`;
  return { message: `Backup written to ${out}: ${manifest.database.kind} database, ${media}.` };
});
